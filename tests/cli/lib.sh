# lib.sh -- what the CLI contract tests share (sourced): a scratch directory $tmp, the pass/fail
# counts, check (a command's exit status) and grep_out (a pattern in a file).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # NAME EXPECTED_STATUS COMMAND...
  local name=$1 want=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $name: exit $got, expected $want" >&2; head -3 "$tmp/err" >&2; fi
}
grep_out() { # NAME PATTERN FILE
  if grep -q -- "$2" "$3"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $1: '$2' not in output" >&2; head -5 "$3" >&2; fi
}
