#!/usr/bin/env bash
# CLI contract: with --json every command prints exactly one JSON document on standard output,
# whatever happens -- success, a syntax error in the input, a usage error (unknown option, bad
# value, missing file), a run-time error of the emulator -- and nothing on standard error.  Each
# diagnostic carries its id ("rule"), severity, file, line and column; what the command would
# print on standard output is in the document ("output", "output_base64", or structured members
# such as run --list-inputs' "kernel" and "inputs").  Ids are matched exactly (the emulator's:
# src/emu/diags.def).
# Usage: json.sh VISA_BINARY TESTS_DIR
set -u
visa=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: a test cds
tests=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"
skipped=0
have_python=true
if ! command -v python3 >/dev/null; then
  have_python=false
  echo "notice: python3 is absent: the exit statuses and standard error are checked, the JSON documents are not"
fi
saxpy="$tests/../examples/saxpy.visaasm"
sargs=(--arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2 --arg 16)
printf '.version 4.1\n.kernel "k"\n.decl V32 v_type=G type=d num_elts=8\n    add (M1, 8) V32(0,0)<1> V33(0,0)<1;1,0> 0x1:d\n' >"$tmp/bad.visaasm"

# doc NAME STATUS CMD...: exit STATUS, standard output one JSON document whose exit_status and
# status agree with it, standard error empty
doc() {
  local name=$1 want=$2
  shift 2
  check "$name" "$want" "$@"
  if ! $have_python; then
    skipped=$((skipped + 1))
  elif python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(not (isinstance(d, dict) and d["exit_status"] == int(sys.argv[1]) and d["status"] == ("ok" if d["exit_status"] == 0 else "invalid")))' "$want" <"$tmp/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name-one-document" >&2; head -5 "$tmp/out" >&2
  fi
  if [ -s "$tmp/err" ]; then fail=$((fail + 1)); echo "FAIL $name-stderr: $(head -1 "$tmp/err")" >&2; else pass=$((pass + 1)); fi
}
# py NAME EXPR [ARG...]: the Python expression holds for d (the document) and a (the arguments)
py() {
  local name=$1 expr=$2
  shift 2
  if ! $have_python; then
    skipped=$((skipped + 1))
  elif python3 -c "import json,sys,base64; d=json.load(open('$tmp/out')); a=sys.argv[1:]; sys.exit(not ($expr))" "$@"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name: $expr ($*)" >&2; head -12 "$tmp/out" >&2
  fi
}
# has_diag NAME ID_PREFIX FILE LINE COL: a diagnostic of the document is that
has_diag() {
  py "$1" 'any(x["rule"] == a[0] and x["file"] == (a[1] if a[1] != "null" else None) and x["line"] == int(a[2]) and x["col"] == int(a[3]) and x["severity"] == "error" and x["message"] for x in d["diagnostics"])' "${@:2}"
}

# -- a syntax error in the input ----------------------------------------------------------------
for c in fmt asm run verify; do
  doc "syntax-$c" 1 "$visa" "$c" --json "$tmp/bad.visaasm"
  has_diag "syntax-$c-diag" E-SYNTAX "$tmp/bad.visaasm" 4 29
  py "syntax-$c-count" 'd["errors"] == 1 and d["command"] == a[0] and d["file"] == a[1] and d["input"] == "text"' "$c" "$tmp/bad.visaasm"
done
# an object that does not decode: the byte offset
printf 'CISA\004\001\001' >"$tmp/trunc.isa"
doc syntax-dis 1 "$visa" dis --json "$tmp/trunc.isa"
py syntax-dis-offset 'any(x["rule"].startswith("E-") and "offset" in x and x["line"] == 0 for x in d["diagnostics"]) and d["input"] == "binary"'

# -- usage errors: the command line is the "file", the column is the word's ----------------------
for c in fmt asm run verify; do
  doc "usage-$c" 2 "$visa" "$c" --json "$saxpy" --frob
  # "visa CMD --json SAXPY --frob": --frob starts after the four words and their spaces
  col=$((4 + 1 + ${#c} + 1 + 6 + 1 + ${#saxpy} + 1 + 1))
  has_diag "usage-$c-diag" E-USAGE "<command line>" 1 "$col"
  py "usage-$c-source" 'any(x["source"] == a[0] for x in d["diagnostics"])' "visa $c --json $saxpy --frob"
done
doc usage-before-json 2 "$visa" fmt --frob "$saxpy" --json # --json after the error still counts
has_diag usage-before-json-diag E-USAGE "<command line>" 1 10
doc usage-bad-value 2 "$visa" run "$saxpy" --threads 0 --json
has_diag usage-bad-value-diag E-USAGE "<command line>" 1 $((4 + 1 + 3 + 1 + ${#saxpy} + 1 + 9 + 1 + 1))
doc usage-bad-platform 2 "$visa" verify --json --platform Gen42 "$saxpy"
py usage-bad-platform-msg 'd["diagnostics"][0]["message"] == "unknown platform '"'Gen42'"'"'
doc usage-no-file 2 "$visa" asm --json
py usage-no-file-msg 'd["diagnostics"][0]["message"] == "asm needs an input file" and d["file"] is None'
doc usage-missing-value 2 "$visa" run "$saxpy" --json --arg
doc usage-command 2 "$visa" frobnicate --json
py usage-command-msg 'd["command"] == "frobnicate" and d["diagnostics"][0]["rule"] == "E-USAGE"'
# a file that cannot be read: its path, no position
for c in fmt asm dis run verify; do
  doc "missing-$c" 1 "$visa" "$c" --json "$tmp/does-not-exist.visaasm"
  has_diag "missing-$c-diag" E-IO "$tmp/does-not-exist.visaasm" 0 0
done
# the value of an option is not the --json switch: -o --json writes a file called --json
(cd "$tmp" && "$visa" fmt "$saxpy" -o --json >"$tmp/out" 2>"$tmp/err")
if [ -s "$tmp/--json" ] && [ ! -s "$tmp/out" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL json-as-value" >&2; fi

# -- run-time errors ------------------------------------------------------------------------------
doc runtime-oob 1 "$visa" run "$saxpy" --arg buf:8 --arg buf:64 --arg 2.5 --arg 10 --json
has_diag runtime-oob-diag E-RUN-OOB-GLOBAL "$saxpy" 63 5
py runtime-oob-source 'any("lsc_load" in x.get("source", "") for x in d["diagnostics"])'
doc runtime-args 1 "$visa" run "$saxpy" --arg buf:64 --arg buf:64 --arg 2 --json
has_diag runtime-args-diag E-INPUT-COUNT "$saxpy" 0 0
doc runtime-verify 1 "$visa" run "$saxpy" --platform Gen9 "${sargs[@]}" --json
has_diag runtime-verify-diag V-PLATFORM "$saxpy" 63 5
doc runtime-kernel 1 "$visa" run "$saxpy" --kernel saxpi "${sargs[@]}" --json
has_diag runtime-kernel-diag E-NO-KERNEL "$saxpy" 0 0
doc runtime-launch 1 "$visa" run "$saxpy" --local-size 0,1,1 "${sargs[@]}" --json
has_diag runtime-launch-diag E-LAUNCH "$saxpy" 0 0

# -- what a command prints is in the document ----------------------------------------------------
"$visa" fmt "$saxpy" >"$tmp/fmt.txt"
doc fmt-ok 0 "$visa" fmt --json "$saxpy"
py fmt-ok-output 'd["output"] == open(a[0]).read() and d["errors"] == 0 and d["diagnostics"] == []' "$tmp/fmt.txt"
doc fmt-to-file 0 "$visa" fmt --json "$saxpy" -o "$tmp/fmt2.txt"
py fmt-to-file-no-output '"output" not in d'
check fmt-to-file-written 0 cmp "$tmp/fmt.txt" "$tmp/fmt2.txt"
"$visa" asm "$saxpy" -o "$tmp/saxpy.isa"
doc asm-stdout 0 "$visa" asm --json "$saxpy" -o -
py asm-stdout-bytes 'base64.b64decode(d["output_base64"]) == open(a[0], "rb").read()' "$tmp/saxpy.isa"
"$visa" dis "$tmp/saxpy.isa" >"$tmp/dis.txt"
doc dis-ok 0 "$visa" dis --json "$tmp/saxpy.isa"
py dis-ok-output 'd["output"] == open(a[0]).read() and d["input"] == "binary"' "$tmp/dis.txt"
"$visa" run "$saxpy" "${sargs[@]}" --print 1:f --print 0:d >"$tmp/print.txt"
doc run-print 0 "$visa" run "$saxpy" "${sargs[@]}" --print 1:f --print 0:d --stats --json
py run-print-output 'd["output"] == open(a[0]).read()' "$tmp/print.txt"
py run-stats 'd["stats"]["instructions"] > 0 and d["stats"]["threads"] == 1 and isinstance(d["stats"]["compiled_instructions"], int)'
doc run-trace 0 "$visa" run "$saxpy" "${sargs[@]}" --trace --trace-lanes 0-1 --json
py run-trace-output 'd["output"].startswith("G<0,0,0>.T0 ")'
doc verify-ok 0 "$visa" verify --json "$saxpy"
doc verify-rules 0 "$visa" verify --json --list-rules
py verify-rules-list 'len(d["rules"]) > 10 and all(r["id"].startswith("V-") for r in d["rules"])'
doc info-ok 0 "$visa" info --json add
py info-ok-output 'd["output"].startswith("ADD\n")'
doc info-unknown 1 "$visa" info --json ad
py info-unknown-diag 'd["diagnostics"][0]["rule"] == "E-UNKNOWN-INSTRUCTION" and "did you mean '"'add'"'" in d["diagnostics"][0]["message"]'
doc help 0 "$visa" run --help --json
py help-output 'd["output"].startswith("usage: visa run")'
doc region-ok 0 "$visa" region --json 'V(1,2)<8;4,2>' --type w --exec 16
py region-ok-layout 'd["region"]["lane_bytes"][:2] == [68, 72] and d["output"].startswith("V(1,2)<8;4,2>  source")'
doc region-rule 1 "$visa" region --json 'V(1,2)<8;4,2>' --type w --exec 16 --platform XeHPG
has_diag region-rule-diag V-REGION-GRF-SPAN "<operand>" 1 1
doc region-syntax 1 "$visa" region --json 'V(1,2)<8;4,2' --type w --exec 16
has_diag region-syntax-diag E-SYNTAX "<operand>" 1 13

# -- run --list-inputs --json: the facts of the text listing ---------------------------------------
doc inputs 0 "$visa" run "$saxpy" --list-inputs --json
py inputs-kernel 'd["kernel"]["name"] == "saxpy" and d["kernel"]["target"] == "cm" and d["kernel"]["input_count"] == 4 and d["kernel"]["arg_count"] == 4'
py inputs-names '[i["name"] for i in d["inputs"]] == ["V32", "V33", "V34", "V35"] and [i["index"] for i in d["inputs"]] == [0, 1, 2, 3]'
py inputs-v34 'd["inputs"][2] == dict(d["inputs"][2], offset=80, size=4, type="f", elements=1, role="cross-thread", read=True, takes_arg=True, arg="f: N")'
py inputs-pointer 'd["inputs"][0]["arg"] == "uq: N, or a pointer: buf:SIZE[:INIT] or @N"'
doc inputs-ocl 0 "$visa" run "$tests/emu/ocl_gid.visaasm" --list-inputs --json
py inputs-ocl-kernel 'd["kernel"]["target"] == "3d" and d["kernel"]["simd_size"] == 16'
py inputs-ocl-local-id 'd["inputs"][0]["role"] == "per-thread" and d["inputs"][0]["local_id"] == "x" and not d["inputs"][0]["takes_arg"] and d["inputs"][0]["elements"] == 16'
py inputs-ocl-vector 'd["inputs"][3]["role"] == "inline" and d["inputs"][3]["arg"] == "2 x d: A,B"'
doc inputs-no-kernel 1 "$visa" run "$saxpy" --list-inputs --kernel nope --json
has_diag inputs-no-kernel-diag E-NO-KERNEL "$saxpy" 0 0
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
