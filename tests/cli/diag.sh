#!/usr/bin/env bash
# CLI contract (issue 16): `visa run` verifies first (errors stop it, --no-verify skips it,
# warnings do not) for the --platform given; run-time errors carry the source line and caret and
# name buffers, not raw addresses; past 20 errors the rest are counted ("... and 37 more errors");
# dis refuses text; --json on every command with diagnostics, with the right counts (on standard
# output: tests/cli/json.sh checks the document); info --list
# and sub-operation suffixes; "did you mean" for instructions, options and kernels; the progress
# line (forced with --progress, delay from the VISA_PROGRESS_DELAY_MS test hook).
# Usage: diag.sh VISA_BINARY TESTS_DIR
set -u
visa=$1
tests=$2
. "$(dirname "$0")/lib.sh"
grep_in() { grep_out "$@"; }
grep_not() { # NAME PATTERN FILE
  if grep -q -- "$2" "$3"; then fail=$((fail + 1)); echo "FAIL $1: '$2' in output" >&2; else pass=$((pass + 1)); fi
}
json_field() { # FILE KEY: the value of a top-level key
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null
}
json_is() { # NAME FILE KEY VALUE
  local got
  got=$(json_field "$2" "$3")
  if [ "$got" = "$4" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $1: $3 is '$got', expected '$4'" >&2; head -5 "$2" >&2; fi
}
saxpy="$tests/../examples/saxpy.visaasm"
sargs=(--arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2 --arg 16)

# -- run verifies first, for its platform ---------------------------------------------------------
check run-gen9-lsc 1 "$visa" run "$saxpy" --platform Gen9 "${sargs[@]}" --print 1:f
grep_in run-gen9-rule "saxpy.visaasm:63:5: error\[V-PLATFORM\]: 'lsc_load' is not available on Gen9" "$tmp/err"
grep_in run-gen9-not-run "3 errors on Gen9: not run" "$tmp/err"
if [ -s "$tmp/out" ]; then fail=$((fail + 1)); echo "FAIL run-gen9-no-output" >&2; else pass=$((pass + 1)); fi
check run-no-verify 0 "$visa" run "$saxpy" --platform Xe2 --no-verify "${sargs[@]}" --print 1:f
grep_in run-no-verify-result "^1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31$" "$tmp/out"
# warnings do not stop a run (and are not shown: 'visa verify' shows them)
sed -e '/^\/\/@good/,/^\/\/@bad/d' -e '/^\/\/@end/d' "$tests/verify/cases/pred_size.visaasm" >"$tmp/warn.visaasm"
check verify-warns 0 "$visa" verify "$tmp/warn.visaasm"
grep_in verify-warns-text "warning\[V-PRED-SIZE\]" "$tmp/err"
check run-with-warnings 0 "$visa" run "$tmp/warn.visaasm" --arg "$(seq -s, 1 32)"
grep_not run-with-warnings-quiet "warning" "$tmp/err"

# -- run-time errors: source line, caret, buffers by number ---------------------------------------
check run-oob 1 "$visa" run "$saxpy" --arg buf:8 --arg buf:64 --arg 2 --arg 16
# lane 2 reads bytes 8..11 of the 8-byte buffer 0
grep_in run-oob-msg "saxpy.visaasm:63:5: error\[E-RUN-OOB-GLOBAL\]: runtime error in 'lsc_load': load of 4 bytes at buffer 0 (8 bytes) + 8 is out of bounds \[group 0, thread 0, lane 2\]" "$tmp/err"
grep_in run-oob-source "^        (P1) lsc_load.ugm (M1, 16)  V38:d32  flat\[V36\]:a64" "$tmp/err"
grep_in run-oob-caret "^        ^$" "$tmp/err"
grep_not run-oob-raw-address "0x1000000" "$tmp/err"

# -- past 20 errors: counted -----------------------------------------------------------------------
{ printf '.version 4.1\n.kernel "k"\n.decl V32 v_type=G type=d num_elts=8\n'
  for _ in $(seq 57); do printf '    add (M1, 8) V32(0,0)<1> V33(0,0)<1;1,0> 0x1:d\n'; done
  printf '    ret (M1, 1)\n'; } >"$tmp/many.visaasm"
for c in fmt asm run; do
  if [ "$c" = run ]; then check "many-$c" 1 "$visa" run "$tmp/many.visaasm"
  else check "many-$c" 1 "$visa" "$c" "$tmp/many.visaasm" -o "$tmp/many.out"; fi
  grep_in "many-$c-more" "many.visaasm: ... and 37 more errors$" "$tmp/err"
  n=$(grep -c "error: undefined variable 'V33'" "$tmp/err")
  if [ "$n" -eq 20 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL many-$c-shown: $n" >&2; fi
done
check many-verify 1 "$visa" verify "$tmp/many.visaasm"
grep_in many-verify-all "57 errors, 0 warnings" "$tmp/err"

# -- dis wants an object ---------------------------------------------------------------------------
check dis-text 1 "$visa" dis "$saxpy"
grep_in dis-text-msg "saxpy.visaasm: error: not a vISA object (it does not start with \"CISA\")" "$tmp/err"
grep_not dis-text-no-echo ".kernel" "$tmp/err"
if [ -s "$tmp/out" ]; then fail=$((fail + 1)); echo "FAIL dis-text-no-output" >&2; else pass=$((pass + 1)); fi

# -- --json everywhere, with the counts ------------------------------------------------------------
printf '.version 4.1\n.kernel "k"\n.decl V32 v_type=G type=d num_elts=8\n    add (M1, 8) V32(0,0)<1> V33(0,0)<1;1,0> 0x1:d\n' >"$tmp/bad.visaasm"
check verify-json-syntax 1 "$visa" verify --json "$tmp/bad.visaasm"
json_is verify-json-syntax-errors "$tmp/out" errors 1
json_is verify-json-syntax-status "$tmp/out" status invalid
check verify-json-many 1 "$visa" verify --json "$tmp/many.visaasm"
json_is verify-json-many-errors "$tmp/out" errors 57
for c in fmt asm run; do
  check "json-$c" 1 "$visa" "$c" --json "$tmp/many.visaasm"
  json_is "json-$c-errors" "$tmp/out" errors 57
  json_is "json-$c-command" "$tmp/out" command "$c"
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["diagnostics"]))' "$tmp/out" 2>/dev/null)
  if [ "$n" = 57 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL json-$c-all: $n" >&2; fi
done
check json-dis-text 1 "$visa" dis --json "$saxpy"
json_is json-dis-errors "$tmp/out" errors 1
check json-run-gen9 1 "$visa" run --json "$saxpy" --platform Gen9 "${sargs[@]}"
json_is json-run-gen9-errors "$tmp/out" errors 3
check json-run-oob 1 "$visa" run --json "$saxpy" --arg buf:8 --arg buf:64 --arg 2 --arg 16
json_is json-run-oob-errors "$tmp/out" errors 1
grep_in json-run-oob-rule '"rule": "E-RUN-OOB-GLOBAL", "file": ".*saxpy.visaasm", "line": 63, "col": 5' "$tmp/out"
check json-fmt-ok 0 "$visa" fmt --json "$saxpy" -o "$tmp/ok.visaasm"
json_is json-fmt-ok-status "$tmp/out" status ok

# -- info --list, suffixes -------------------------------------------------------------------------
check info-list 0 "$visa" info --list
grep_in info-list-add "^add  " "$tmp/out"
grep_in info-list-cmp "^cmp.lt  " "$tmp/out"
grep_in info-list-lsc "^lsc_load.ugm  *LSC_LOAD " "$tmp/out"
grep_in info-list-typed "^lsc_load_quad.tgm  *LSC_T_LOAD_QUAD " "$tmp/out"
grep_not info-list-no-typed-lsc-load "^lsc_load.tgm " "$tmp/out"
check info-suffix 0 "$visa" info lsc_load.ugm
grep_in info-suffix-row "^LSC_LOAD$" "$tmp/out"
check info-typed-suffix 0 "$visa" info lsc_load_quad.tgm
grep_in info-typed-row "^LSC_T_LOAD_QUAD$" "$tmp/out"
grep_not info-typed-only "^LSC_LOAD_QUAD$" "$tmp/out"
check info-cmp 0 "$visa" info cmp.lt
# what --list names, info describes (every 7th line, to keep the test quick)
bad=0
for m in $("$visa" info --list | awk 'NR % 7 == 1 {print $1}'); do "$visa" info "$m" >/dev/null 2>&1 || bad=$((bad + 1)); done
if [ "$bad" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL info-list-described: $bad" >&2; fi

# -- did you mean ----------------------------------------------------------------------------------
check mean-info 1 "$visa" info lsc_lod.ugm
grep_in mean-info-msg "unknown instruction 'lsc_lod.ugm' (did you mean 'lsc_load.ugm'?)" "$tmp/err"
check mean-info-short 1 "$visa" info ad
grep_in mean-info-short-msg "(did you mean 'add'?)" "$tmp/err"
check mean-option 2 "$visa" fmt --jsn "$saxpy"
grep_in mean-option-msg "unknown option '--jsn' (did you mean '--json'?)" "$tmp/err"
check mean-run-option 2 "$visa" run "$saxpy" --kernal saxpy
grep_in mean-run-option-msg "(did you mean '--kernel'?)" "$tmp/err"
check mean-kernel 1 "$visa" run "$saxpy" --kernel saxpi "${sargs[@]}"
grep_in mean-kernel-msg "no kernel named 'saxpi' (did you mean 'saxpy'?); its kernels: saxpy" "$tmp/err"
check kernel-list 1 "$visa" run "$tests/cli/launch.sh" --kernel zzz 2>/dev/null # not a program
check kernel-list-far 1 "$visa" run "$saxpy" --kernel completely_else "${sargs[@]}"
grep_in kernel-list-far-msg "no kernel named 'completely_else'; its kernels: saxpy" "$tmp/err"

# -- progress line ---------------------------------------------------------------------------------
check progress-forced 0 env VISA_PROGRESS_DELAY_MS=0 "$visa" run "$saxpy" --progress "${sargs[@]}"
grep_in progress-forced-msg "visa: kernel 'saxpy' ran for [0-9.]* s" "$tmp/err"
check progress-off 0 "$visa" run "$saxpy" "${sargs[@]}" # stderr is no terminal here
grep_not progress-off-quiet "kernel 'saxpy'" "$tmp/err"
check progress-short 0 "$visa" run "$saxpy" --progress "${sargs[@]}" # under a second: nothing
grep_not progress-short-quiet "running kernel" "$tmp/err"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
