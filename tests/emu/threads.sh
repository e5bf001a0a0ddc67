#!/usr/bin/env bash
# Many small groups on 4 host threads (groups.visaasm: each group writes its own 128 bytes; with
# half the buffer, groups 512 on fault): the bytes and the reported fault (the lowest group) are
# those of 1 host thread.  Enough groups that the workers overlap, so that `make check-tsan`
# (label "threads") sees the launch's shared state touched from several threads at once.
# (--no-verify: groups.visaasm multiplies uq, which the verifier rejects on Xe2.)
# Usage: threads.sh VISA_BINARY EMU_DIR
set -u
visa=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # NAME COMMAND...: the command succeeds
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name"; fi
}
G=1024
for n in 1 4; do
  check "run-$n" "$visa" run "$dir/groups.visaasm" --no-verify --groups $G --threads $n --arg buf:$((G * 128)) --arg $G \
    --out "0=$tmp/out$n.bin"
  "$visa" run "$dir/groups.visaasm" --no-verify --groups $G --threads $n --arg buf:$((G * 64)) --arg $G 2>"$tmp/err$n"
  check "fault-status-$n" test $? = 1
done
check same-bytes cmp -s "$tmp/out1.bin" "$tmp/out4.bin"
check same-fault cmp -s "$tmp/err1" "$tmp/err4"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
