#!/usr/bin/env bash
# visa run --check on OpenCL C built with -g: a finding names the kernel source's file and line
# (IGC's FILE / LOC) and the work-item, worked out by hand from the kernel below.  IGC picks the
# SIMD width and the vISA lines, so thread, lane and vISA line are not pinned.  Exits 77 (skipped)
# without libocloc.
# Usage: check_cl.sh VISA_BINARY
set -u
visa=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1 # IGC writes a -g build's vISA text (OCL_asm*.visaasm) into the working directory
pass=0
fail=0
# a[i + n] with i the global id: with n = 8 over a 64-byte (16 float) buffer the work-items whose
# global id is 8 or more store out of bounds, on source line 4
printf 'kernel void oob(global float *a, int n)\n{\n    int i = get_global_id(0);\n    a[i + n] = 1.0f;\n}\n' >"$tmp/oob.cl"
# NAME EXIT ARGS...: the run's exit status; stderr in $tmp/err
run() {
  local name=$1 want=$2
  shift 2
  "$visa" run "$tmp/oob.cl" --device dg2-g10 --build-options "-g" --kernel oob --arg a=buf:64 --arg n=8 "$@" \
    >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if grep -q 'E-OCLOC-LOAD' "$tmp/err"; then echo "SKIPPED: libocloc cannot be loaded"; exit 77; fi
  if [ "$rc" = "$want" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name: exit $rc, want $want"; head -3 "$tmp/err"; fi
}
# NAME N GLOBAL LOCAL GROUP-INDEX GROUP-IDS: stderr has N findings, and one line for work-item
# GLOBAL (local LOCAL) of group GROUP-INDEX (GROUP-IDS) at oob.cl line 4
finds() {
  local n
  n=$(grep -c 'error\[C-MEMCHECK-OOB\]' "$tmp/err")
  if [ "$n" = "$2" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $n findings, want $2"; head -3 "$tmp/err"; fi
  local re="error\[C-MEMCHECK-OOB\]: out-of-bounds store of 4 bytes at .*: offset [0-9]+ of buffer 0 \(64 bytes\) \[work-item \($3\) local \($4\), group $5 \($6\), thread [0-9]+, lane [0-9]+\] at $tmp/oob.cl:4\$"
  if grep -qE "$re" "$tmp/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: no line like '$re'"; head -3 "$tmp/err"; fi
}
# one group of 16: work-items 8..15 (the first is work-item 8, local 8)
run one-group 1 --global-size 16 --local-size 16 --check=memcheck
finds one-group 8 8,0,0 8,0,0 0 0,0,0
# global offset 4, groups of 8: global ids 4..19, of which 8..19 store out of bounds; global id 8
# is group 0's local id 4, global id 12 group 1's local id 0
run offset 1 --global-size 16 --local-size 8 --global-offset 4,0,0 --check=memcheck
finds offset 12 8,0,0 4,0,0 0 0,0,0
finds offset-group1 12 12,0,0 0,0,0 1 1,0,0
# a non-uniform ND-range: 20 work-items in groups of 8 run two whole groups, then the remainder
# group (2,0,0) of 4 as a launch of its own (its linear index there is 0): its local id 0 is
# global id 2 x 8 + 0 = 16
run remainder 1 --global-size 20 --local-size 8 --check=memcheck
finds remainder 12 16,0,0 0,0,0 0 2,0,0
# in bounds: nothing
"$visa" run "$tmp/oob.cl" --device dg2-g10 --build-options "-g" --kernel oob --arg a=buf:64 --arg n=0 \
  --global-size 16 --local-size 16 --check=all >"$tmp/out" 2>"$tmp/err"
if [ $? = 0 ] && ! grep -q 'error' "$tmp/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL clean: $(head -3 "$tmp/err")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
