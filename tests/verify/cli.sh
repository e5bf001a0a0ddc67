#!/usr/bin/env bash
# `visa verify` contract: exit codes (0 clean, 1 errors, 2 usage), the diagnostic format
# (file:line:col: error[RULE]: message, source line and caret; file:+0xOFFSET for objects),
# warnings distinct from errors, --werror, --json, --list-rules (and docs/verifier.md's table of them).
# Usage: cli.sh VISA_BINARY TESTS_VERIFY_DIR
set -u
visa=$1
dir=$2
. "$(dirname "$0")/../cli/lib.sh"
grep_in() { grep_out "$@"; }
bad=$dir/cases/pending_sat_on_mulh.visaasm
check help 0 "$visa" verify --help
grep_in help-text "usage: visa verify FILE" "$tmp/out"
grep_in main-help "verify FILE" <("$visa" --help)
check no-file 2 "$visa" verify
check bad-option 2 "$visa" verify --frobnicate "$bad"
check bad-platform 2 "$visa" verify --platform Gen42 "$bad"
check missing-file 1 "$visa" verify "$tmp/none.visaasm"
check list-rules 0 "$visa" verify --list-rules
grep_in list-rules-sat "^V-SAT " "$tmp/out"
# errors: exit 1, rule id, position, source line and caret
check error 1 "$visa" verify "$bad"
grep_in error-format "pending_sat_on_mulh.visaasm:19:23: error\[V-SAT\]: 'mulh' does not support saturation" "$tmp/err"
grep_in error-source "    mulh.sat (M1, 16) V33(0,0)<1>" "$tmp/err"
grep_in error-caret "^                          \^$" "$tmp/err"
grep_in error-summary "1 error, 0 warnings" "$tmp/err"
# a clean program (a case's good variant): exit 0, no output
sed -e '/^\/\/@bad/,/^\/\/@end/d' -e '/^\/\/@/d' "$dir/cases/sat.visaasm" >"$tmp/clean.visaasm"
check clean 0 "$visa" verify "$tmp/clean.visaasm"
if [ -s "$tmp/err" ]; then fail=$((fail + 1)); echo "FAIL clean: output on stderr" >&2; else pass=$((pass + 1)); fi
# warnings: exit 0 (1 with --werror), printed as warnings
sed -e '/^\/\/@good/,/^\/\/@bad/d' -e '/^\/\/@end/d' "$dir/cases/pred_size.visaasm" >"$tmp/warn.visaasm"
check warning 0 "$visa" verify "$tmp/warn.visaasm"
grep_in warning-format "warn.visaasm:[0-9]*:5: warning\[V-PRED-SIZE\]" "$tmp/err"
check werror 1 "$visa" verify --werror "$tmp/warn.visaasm"
# --platform: add3 needs XeHP
sed -e '/^\/\/@good/,/^\/\/@bad/d' -e '/^\/\/@end/d' "$dir/cases/platform.visaasm" >"$tmp/add3.visaasm"
check platform-gen9 1 "$visa" verify --platform Gen9 "$tmp/add3.visaasm"
grep_in platform-msg "error\[V-PLATFORM\]: 'add3' is not available on Gen9" "$tmp/err"
check platform-xe2 0 "$visa" verify --platform Xe2 "$tmp/add3.visaasm"
# objects: byte offsets
"$visa" asm "$bad" -o "$tmp/bad.isa" --platform Xe2 >/dev/null 2>&1
check object 1 "$visa" verify "$tmp/bad.isa"
grep_in object-format "bad.isa:+0x[0-9a-f]*: error\[V-SAT\]" "$tmp/err"
# --json
check json 1 "$visa" verify --json "$bad"
grep_in json-rule '"rule": "V-SAT"' "$tmp/out"
grep_in json-pos '"line": 19, "col": 23' "$tmp/out"
grep_in json-count '"errors": 1' "$tmp/out"
if command -v python3 >/dev/null; then
  if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL json-valid" >&2; fi
fi
# docs/verifier.md's rule table is rules.def's (regenerate: rules_doc.py VISA docs/verifier.md --write)
if command -v python3 >/dev/null; then
  check rules-doc 0 python3 "$dir/rules_doc.py" "$visa" "$dir/../../docs/verifier.md"
fi
check json-clean 0 "$visa" verify --json "$tmp/clean.visaasm"
grep_in json-clean-list '"diagnostics": \[\]' "$tmp/out"
check json-syntax 1 "$visa" verify --json "$dir/../text/malformed/$(ls "$dir/../text/malformed" | grep visaasm | head -1)"
grep_in json-syntax-rule '"rule": "E-' "$tmp/out"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
