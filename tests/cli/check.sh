#!/usr/bin/env bash
# visa run --check: each kernel with one planted defect reports it at the right line and lane
# (expected lines worked out by hand from the kernels in tests/cli/check/ and examples/saxpy),
# and the same kernel without the defect reports nothing.
# Usage: check.sh VISA_BINARY SOURCE_DIR
set -u
visa=$1
src=$2
k=$src/tests/cli/check
sx=$src/examples/saxpy.visaasm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# NAME EXIT ARGS...: the run's exit status; stderr in $tmp/err
run() {
  local name=$1 want=$2
  shift 2
  "$visa" run "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" = "$want" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name: exit $rc, want $want"; head -3 "$tmp/err"; fi
}
has() { # NAME LINE: stderr has exactly this line
  if grep -qxF -- "$2" "$tmp/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: no line '$2'"; head -3 "$tmp/err"; fi
}
count() { # NAME N: stderr has N findings
  local n
  n=$(grep -c 'error\[C-' "$tmp/err")
  if [ "$n" = "$2" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $n findings, want $2"; head -3 "$tmp/err"; fi
}

# memcheck, out of bounds: n = 16 over 32-byte buffers: lanes 8..15 of both loads (lines 63, 64)
# and of the store (66) are outside; reads give 0, the store is dropped; 24 findings, of which the
# CLI's context shows 20 (its max_errors), then "and 4 more"
run oob 1 "$sx" --arg buf:32:iota:f --arg buf:32:fill:f:1 --arg 2.5 --arg 16 --check=memcheck
count oob 20
has oob-first "$sx:63:5: error[C-MEMCHECK-OOB]: out-of-bounds load of 4 bytes at address 0x100000020: offset 32 of buffer 0 (32 bytes) [group 0 (0,0,0), thread 0, lane 8]"
has oob-store "$sx:66:5: error[C-MEMCHECK-OOB]: out-of-bounds store of 4 bytes at address 0x20000002c: offset 44 of buffer 1 (32 bytes) [group 0 (0,0,0), thread 0, lane 11]"
has oob-more "$sx: ... and 4 more errors"
run oob-fixed 0 "$sx" --arg buf:32:iota:f --arg buf:32:fill:f:1 --arg 2.5 --arg 8 --check=memcheck
count oob-fixed 0
# without --check the same run faults at the first one
run oob-nocheck 1 "$sx" --arg buf:32:iota:f --arg buf:32:fill:f:1 --arg 2.5 --arg 16
count oob-nocheck 0
# memcheck, alignment (tests/cli/check/align.visaasm, D = buffer 0 at 0x100000000, OFF 2): the
# per-lane d32 load (line 22) takes any byte address; the block load (24) and the atomic (25) are
# reported once each, lane 0.  Without --check the per-lane load reads bytes 2+4i..5+4i (iota).
ua=$k/align.visaasm
run align 1 "$ua" --arg buf:40:iota:ub --arg buf:32 --arg 2 --check=memcheck
count align 2
has align-block "$ua:24:5: error[C-MEMCHECK-ALIGN]: address 0x100000002 is not aligned to 4 bytes [group 0 (0,0,0), thread 0, lane 0]"
has align-atomic "$ua:25:5: error[C-MEMCHECK-ALIGN]: address 0x100000002 is not aligned to 4 bytes [group 0 (0,0,0), thread 0, lane 0]"
run align-fixed 0 "$ua" --arg buf:40:iota:ub --arg buf:32 --arg 0 --check=all
count align-fixed 0
"$visa" run "$ua" --arg buf:40:iota:ub --arg buf:32 --arg 2 --print 1:ud >"$tmp/out" 2>&1
if grep -qxF "84148994 151521030 218893066 286265102 353637138 421009174 488381210 555753246" "$tmp/out"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL align-values: $(head -c 300 "$tmp/out")"
fi
# memcheck, indirect: V is the first variable after the inputs, at the second 64-byte GRF (bytes
# 128..159); OFF 4 makes lane 7 read bytes 160..163
run indirect 1 "$k/indirect.visaasm" --arg buf:32 --arg 4 --check=memcheck
count indirect 1
has indirect-line "$k/indirect.visaasm:19:5: error[C-MEMCHECK-INDIRECT]: indirect source through A0(0) reaches register bytes 160..163, outside the variable it points into (bytes 128..159) [group 0 (0,0,0), thread 0, lane 7]"
run addr-unset 1 "$k/indirect.visaasm" --arg buf:32 --arg 0xffff --check=memcheck
count addr-unset 1
has addr-unset-line "$k/indirect.visaasm:19:5: error[C-MEMCHECK-ADDR-UNSET]: address register A0(0) is read before this thread set it [group 0 (0,0,0), thread 0]"
run indirect-fixed 0 "$k/indirect.visaasm" --arg buf:32 --arg 0 --check=all
count indirect-fixed 0

# racecheck: without the barrier, thread 1's store to SLM[64..127] follows thread 0's load of
# them, and thread 3's load of SLM[0..63] follows thread 0's store (each pair reported once)
run race 1 "$k/race.visaasm" --group-size 4 --arg 1 --check=racecheck
count race 2
has race-store "$k/race.visaasm:16:5: error[C-RACECHECK-SLM]: write of SLM byte 0x40 [group 0 (0,0,0), thread 1, lane 0] races with the read by thread 0 at line 24:5: no barrier between them"
has race-load "$k/race.visaasm:24:5: error[C-RACECHECK-SLM]: read of SLM byte 0x0 [group 0 (0,0,0), thread 3, lane 0] races with the write by thread 0 at line 16:5: no barrier between them"
run race-fixed 0 "$k/race.visaasm" --group-size 4 --arg 0 --check=all
count race-fixed 0

# synccheck: thread 0 ends while thread 1 waits at the barrier (line 13)
run exit 1 "$k/exit.visaasm" --group-size 2 --arg 1 --check=synccheck
count exit 1
has exit-line "$k/exit.visaasm:13:5: error[C-SYNCCHECK-EXIT]: 1 of the group's 2 threads ended while others wait at a barrier that can never complete [group 0 (0,0,0), thread 1]: thread 0 ended at line 15:5, thread 1 waits at line 13:5"
run exit-fixed 0 "$k/exit.visaasm" --group-size 2 --arg 0 --check=all
count exit-fixed 0

# initcheck: x is buf:64:undef; line 63 loads it into V38 (the first read of the undefined bytes),
# the mad on line 65 makes V39 from it, the store on line 66 stores it: one finding per
# instruction, at the first enabled lane (0); the tail lanes 10..15 compute on undefined V40 bytes
# but nothing of them is stored
run init-undef 1 "$sx" --arg buf:64:undef --arg buf:64:fill:f:1 --arg 2.5 --arg 10 --check=initcheck
count init-undef 1
has init-undef-line "$sx:66:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (V39 bytes 0..3), first read undefined at line 63:5 [group 0 (0,0,0), thread 0, lane 0]"
run init-fixed 0 "$sx" --arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2.5 --arg 10 --check=initcheck
count init-fixed 0

# initcheck (a), a register lane nothing wrote: FIX 0 jumps over line 21, so V's lanes 8..15 (bytes
# 32..63) are never written; the store on line 23 is their first read; lane 8 is the first enabled
# lane storing them
run init-store 1 "$k/init_store.visaasm" --arg buf:64 --arg 0 --check=initcheck
count init-store 1
has init-store-line "$k/init_store.visaasm:23:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (V bytes 32..35), first read undefined at line 23:5 [group 0 (0,0,0), thread 0, lane 8]"
run init-store-fixed 0 "$k/init_store.visaasm" --arg buf:64 --arg 1 --check=all
count init-store-fixed 0
# (b) an address made of undefined bytes: FIX 0 jumps over line 18, so L's lanes 8..15 are never
# written; the shl on line 20 reads them first and makes A's lanes 8..15 (uq: A bytes 64..127)
# undefined; the store's address payload on line 22 is reported at lane 8; its data V is defined
run init-addr 1 "$k/init_addr.visaasm" --arg buf:64 --arg 0 --check=initcheck
count init-addr 1
has init-addr-line "$k/init_addr.visaasm:22:5: error[C-INITCHECK-ADDR]: address made of 8 undefined bytes (A bytes 64..71), first read undefined at line 20:5 [group 0 (0,0,0), thread 0, lane 8]"
run init-addr-fixed 0 "$k/init_addr.visaasm" --arg buf:64 --arg 1 --check=all
count init-addr-fixed 0
# (c) a branch on a predicate computed from undefined data: IN is buf:64:undef, the load on line
# 20 reads it first; the cmp on line 22 makes every bit of P2 undefined; the goto on line 23
# reads them, lane 0 first.  The store on line 24 stores the defined V
run init-branch 1 "$k/init_branch.visaasm" --arg buf:64:undef --arg buf:64 --check=initcheck
count init-branch 1
has init-branch-line "$k/init_branch.visaasm:23:5: error[C-INITCHECK-BRANCH]: the branch depends on an undefined predicate, first read undefined at line 20:5 [group 0 (0,0,0), thread 0, lane 0]"
run init-branch-fixed 0 "$k/init_branch.visaasm" --arg buf:64:iota:ud --arg buf:64 --check=all
count init-branch-fixed 0
# (d) SLM nobody wrote: with OFF 64 thread 0 loads (line 30) SLM[64..127], which thread 1 stored
# (line 27) before the barrier: defined; thread 1 loads SLM[128..191], which no thread stored: W
# is undefined from line 30 on, and the global store on line 31 reports thread 1, lane 0
run init-slm 1 "$k/init_slm.visaasm" --group-size 2 --arg buf:128 --arg 64 --check=initcheck
count init-slm 1
has init-slm-line "$k/init_slm.visaasm:31:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (W bytes 0..3), first read undefined at line 30:5 [group 0 (0,0,0), thread 1, lane 0]"
run init-slm-fixed 0 "$k/init_slm.visaasm" --group-size 2 --arg buf:128 --arg 0 --check=all
count init-slm-fixed 0

# initcheck through 2D block loads and dpas (examples/gemm, K = 16: one step): A undefined makes
# the 2D load on line 56 the first read of its bytes; the dpas on line 58 then writes every ACC
# element undefined (its src2 AT is), and the 2D store on line 62 reports its first element,
# ACC bytes 0..3, as lane 0.  B undefined: the same through dpas's src1, first read on line 57
gm=$src/examples/gemm.visaasm
gargs=(--groups 2,1 --arg buf:1024 --arg 8 --arg 32 --arg 16 --check=initcheck)
run init-2d-a 1 "$gm" --arg buf:256:undef --arg buf:1024:fill:hf:0.5 "${gargs[@]}"
count init-2d-a 1
has init-2d-a-line "$gm:62:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (ACC bytes 0..3), first read undefined at line 56:5 [group 0 (0,0,0), thread 0, lane 0]"
run init-2d-b 1 "$gm" --arg buf:256:fill:hf:1 --arg buf:1024:undef "${gargs[@]}"
count init-2d-b 1
has init-2d-b-line "$gm:62:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (ACC bytes 0..3), first read undefined at line 57:5 [group 0 (0,0,0), thread 0, lane 0]"
run init-2d-fixed 0 "$gm" --arg buf:256 --arg buf:1024 "${gargs[@]}"
count init-2d-fixed 0

# OpenCL (Target="3d"): the lanes of a thread are work-items (tests/cli/check/ocl_lanes.visaasm);
# a finding names the work-item (SIMD8, local size 8: thread 0's lane L is local id (L,0,0), in
# group G global id (8G + L,0,0)), and so does the other access of a race in the same group
ol=$k/ocl_lanes.visaasm
run ocl-race 1 "$ol" --local-size 8 --arg buf:64 --arg 1 --arg 0 --check=racecheck
count ocl-race 1
has ocl-race-line "$ol:32:5: error[C-RACECHECK-GLOBAL]: read of byte 4 of buffer 0 [work-item (0,0,0) local (0,0,0), group 0 (0,0,0), thread 0, lane 0] races with the write by work-item (1,0,0) local (1,0,0), thread 0, lane 1 at line 27:5: no barrier between them"
run ocl-diverge 1 "$ol" --local-size 8 --arg buf:64 --arg 0 --arg 1 --check=synccheck
count ocl-diverge 1
has ocl-diverge-line "$ol:38:5: error[C-SYNCCHECK-DIVERGENCE]: work-group divergence: 4 of the thread's 8 work-items reach this barrier (lanes off: 0xaa), the others do not [group 0 (0,0,0), thread 0]"
run ocl-clean 0 "$ol" --local-size 8 --arg buf:64 --arg 0 --arg 0 --check=all

# initcheck (e), memory there is none of: with n = 16 over 32-byte buffers lanes 8..15 load out of
# bounds (line 63, memcheck's finding); those loads read undefined bytes, which the mad makes V39's
# and the store on line 66 stores, lane 8 first
run init-oob 1 "$sx" --arg buf:32:iota:f --arg buf:32:fill:f:1 --arg 2.5 --arg 16 --check=initcheck,memcheck
has init-oob-line "$sx:66:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (V39 bytes 32..35), first read undefined at line 63:5 [group 0 (0,0,0), thread 0, lane 8]"
# (f) an atomic on memory nothing wrote (ocl_race's OUT[0], an undef buffer): both increments
# (lines 58, 59) read-modify-write undefined bytes
run init-atomic 1 "$k/ocl_race.visaasm" --groups 2 --local-size 8 --arg buf:80:undef --arg 3 --arg 0 --check=initcheck
count init-atomic 2
has init-atomic-line "$k/ocl_race.visaasm:58:5: error[C-INITCHECK-ATOMIC]: atomic read-modify-write of 4 undefined bytes (memory nothing wrote) [work-item (0,0,0) local (0,0,0), group 0 (0,0,0), thread 0, lane 0]"
# (g) struct padding (tests/cli/check/init_pad.visaasm): dwords with one defined byte, copied byte
# by byte by a mov and stored, are no finding; with FIX 0 no byte is defined: the store on line 26
# reports lane 0, first read undefined by the mov on line 25
run init-pad 0 "$k/init_pad.visaasm" --arg buf:32 --arg 1 --check=all
count init-pad 0
run init-pad-undef 1 "$k/init_pad.visaasm" --arg buf:32 --arg 0 --check=initcheck
count init-pad-undef 1
has init-pad-undef-line "$k/init_pad.visaasm:26:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (W bytes 0..3), first read undefined at line 25:5 [group 0 (0,0,0), thread 0, lane 0]"
# memcheck, a buffer the host made read-only (buf:...:ro): saxpy stores y (buffer 1) on line 66;
# once per instruction.  A write-only buffer's loads are not judged (IGC reads them itself)
run read-only 1 "$sx" --arg buf:64:iota:f --arg buf:64:fill:f:1:ro --arg 2.5 --arg 10 --check=memcheck
count read-only 1
has read-only-line "$sx:66:5: error[C-MEMCHECK-ACCESS]: store of 4 bytes at offset 0 of buffer 1, which the host made read-only [group 0 (0,0,0), thread 0, lane 0]"
run write-only 0 "$sx" --arg buf:64:iota:f --arg buf:64:fill:f:1:wo --arg 2.5 --arg 10 --check=all

# racecheck of OpenCL memory (tests/cli/check/ocl_race.visaasm, 2 groups of 8 work-items): a
# barrier orders only the memory its fences cover; NoMask accesses are all enabled work-items';
# an atomic races with another work-item's plain access, not with an atomic; equal stores of two
# groups are no race, different ones are; a read of group 0 is not forgotten when group 1 reads
orc=$k/ocl_race.visaasm
oargs=(--groups 2 --local-size 8 --arg buf:80 --check=racecheck)
run ocl-fences 0 "$orc" "${oargs[@]}" --arg 3 --arg 0
count ocl-fences 0
run ocl-slm-unfenced 1 "$orc" "${oargs[@]}" --arg 2 --arg 0
count ocl-slm-unfenced 1
has ocl-slm-unfenced-line "$orc:54:5: error[C-RACECHECK-SLM]: read of SLM byte 0x4 [work-item (0,0,0) local (0,0,0), group 0 (0,0,0), thread 0, lane 0] races with the write by work-item (1,0,0) local (1,0,0), thread 0, lane 1 at line 36:5: no barrier between them"
run ocl-ugm-unfenced 1 "$orc" "${oargs[@]}" --arg 1 --arg 0
count ocl-ugm-unfenced 1
has ocl-ugm-unfenced-line "$orc:56:5: error[C-RACECHECK-GLOBAL]: read of byte 20 of buffer 0 [work-item (0,0,0) local (0,0,0), group 0 (0,0,0), thread 0, lane 0] races with the write by work-item (1,0,0) local (1,0,0), thread 0, lane 1 at line 41:5: no barrier between them"
run ocl-atomic 1 "$orc" "${oargs[@]}" --arg 3 --arg 1
count ocl-atomic 3
has ocl-atomic-line "$orc:64:5: error[C-RACECHECK-GLOBAL]: read of byte 0 of buffer 0 [work-item (0,0,0) local (0,0,0), group 0 (0,0,0), thread 0, lane 0] races with the atomic write by thread 0, lanes 0xff at line 59:5: no barrier between them"
has ocl-atomic-group "$orc:58:5: error[C-RACECHECK-GLOBAL]: atomic of byte 0 of buffer 0 [work-item (8,0,0) local (0,0,0), group 1 (1,0,0), thread 0, lane 0] races with the read by group 0, thread 0, lane 7 at line 64:5: no barrier between them"
run ocl-nonuniform 1 "$orc" "${oargs[@]}" --arg 3 --arg 2
count ocl-nonuniform 1
has ocl-nonuniform-line "$orc:71:5: error[C-RACECHECK-GLOBAL]: write of byte 4 of buffer 0 [work-item (8,0,0) local (0,0,0), group 1 (1,0,0), thread 0, lane 0] races with the write by group 0, thread 0, lanes 0xff at line 71:5: no barrier between them"
run ocl-intergroup 1 "$orc" "${oargs[@]}" --arg 3 --arg 4
count ocl-intergroup 1
has ocl-intergroup-line "$orc:79:5: error[C-RACECHECK-GLOBAL]: write of byte 8 of buffer 0 [work-item (8,0,0) local (0,0,0), group 1 (1,0,0), thread 0, lane 0] races with the read by group 0, thread 0, lane 0 at line 73:5: no barrier between them"

# the program's source position (tests/cli/check/src_loc.visaasm: FILE "kern.cl", LOC lines as a -g
# build has them): with SHIFT 4 the store of kern.cl line 3 (vISA line 32) leaves the 32-byte
# buffer in lanes 4..7, the load of line 4 (vISA 38) and the store after LOC 0 (vISA 40, no source
# line) in lane 7; SIMD8, local size 8: lane L is work-item (L,0,0), in group 1 with global offset
# 16 work-item (8 + L + 16,0,0)
sl=$k/src_loc.visaasm
run src-loc 1 "$sl" --local-size 8 --arg buf:32 --arg 4 --check=memcheck
count src-loc 6
has src-loc-store "$sl:32:5: error[C-MEMCHECK-OOB]: out-of-bounds store of 4 bytes at address 0x100000020: offset 32 of buffer 0 (32 bytes) [work-item (4,0,0) local (4,0,0), group 0 (0,0,0), thread 0, lane 4] at kern.cl:3"
has src-loc-load "$sl:38:5: error[C-MEMCHECK-OOB]: out-of-bounds load of 4 bytes at address 0x100000020: offset 32 of buffer 0 (32 bytes) [work-item (7,0,0) local (7,0,0), group 0 (0,0,0), thread 0, lane 7] at kern.cl:4"
has src-loc-none "$sl:40:5: error[C-MEMCHECK-OOB]: out-of-bounds store of 4 bytes at address 0x100000020: offset 32 of buffer 0 (32 bytes) [work-item (7,0,0) local (7,0,0), group 0 (0,0,0), thread 0, lane 7]"
run src-loc-group 1 "$sl" --groups 2 --global-offset 16,0,0 --local-size 8 --arg buf:32 --arg 4 --check=memcheck
has src-loc-group-line "$sl:32:5: error[C-MEMCHECK-OOB]: out-of-bounds store of 4 bytes at address 0x100000020: offset 32 of buffer 0 (32 bytes) [work-item (28,0,0) local (4,0,0), group 1 (1,0,0), thread 0, lane 4] at kern.cl:3"
# the origin an initcheck finding names has its source position too (SHIFT 0: lane 7's load reads
# out[8], which is no memory; the last store stores it)
run src-loc-init 1 "$sl" --local-size 8 --arg buf:32 --arg 0 --check=memcheck,initcheck
has src-loc-init-line "$sl:40:5: error[C-INITCHECK-STORE]: store of 4 undefined bytes (VAL bytes 28..31), first read undefined at line 38:5 (kern.cl:4) [work-item (7,0,0) local (7,0,0), group 0 (0,0,0), thread 0, lane 7]"
# without --check: the run's first fault (group 0), in the fault's form
run src-loc-fault 1 "$sl" --groups 2 --global-offset 16,0,0 --local-size 8 --arg buf:32 --arg 4
has src-loc-fault-line "$sl:32:5: error[E-RUN-OOB-GLOBAL]: runtime error in 'lsc_store': store of 4 bytes at buffer 0 (32 bytes) + 32 is out of bounds [work-item (20,0,0) local (4,0,0), group 0, thread 0, lane 4] at kern.cl:3"
# --json gives the position as data too
"$visa" run "$sl" --local-size 8 --arg buf:32 --arg 4 --check=memcheck --json >"$tmp/out" 2>&1
if grep -qF '(32 bytes) [work-item (4,0,0) local (4,0,0), group 0 (0,0,0), thread 0, lane 4] at kern.cl:3", "src_file": "kern.cl", "src_line": 3,' "$tmp/out"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1)); echo "FAIL src-loc-json: $(head -c 600 "$tmp/out")"
fi

# the option
run bad-list 2 "$sx" --check=memcheck,bogus
run all 0 "$sx" --arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2.5 --arg 10 --check=all

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
