#!/usr/bin/env bash
# Execution tests: every line of every cases*.txt is NAME | ARGS | EXPECTED, where ARGS go to
# `visa run tests/emu/NAME.visaasm` and EXPECTED is the exact standard output (one --print line
# per buffer, lines joined with ' ;; '; a diagnostic keeps only LINE:COL: and what follows, not its
# source line and caret).  The kernels run unverified (--no-verify): these test execution, and
# some run instructions on types the verifier rejects for the platform.  Expected values are worked out by hand or by the C
# model named in the case's comment, never taken from visa's own output.
# Usage: run.sh VISA_BINARY CASE_DIR
set -u
visa=$1
dir=$2
pass=0
fail=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  name=$(printf '%s' "$line" | awk -F' [|] ' '{print $1}')
  args=$(printf '%s' "$line" | awk -F' [|] ' '{print $2}')
  want=$(printf '%s' "$line" | awk -F' [|] ' '{print $3}')
  # shellcheck disable=SC2086
  got=$("$visa" run "$dir/$name.visaasm" --no-verify $args 2>&1 | grep -v '^    ' | sed 's#^.*\.visaasm:##' | awk 'NR > 1 { printf " ;; " } { printf "%s", $0 }')
  if [ "$got" = "$want" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    printf 'FAIL %s\n  args:     %s\n  expected: %s\n  got:      %s\n' "$name" "$args" "$want" "$got" >&2
  fi
done < <(cat "$dir"/cases*.txt)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
