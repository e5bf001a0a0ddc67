#!/usr/bin/env bash
# The launch contract of `visa run` (docs/launch.md): every launch error exits 1 with
# "FILE: error: ..." ("FILE: error[ID]: ..." when the library finds it, ids from src/emu/diags.def),
# --list-inputs lists each input's role and the --arg it takes.
# Usage: launch.sh VISA_BINARY TESTS_DIR [CORPUS_DIR]
# With CORPUS_DIR (the xe-forge dumps) it checks --list-inputs and a run of ew_add there, and
# exits 77 when that directory is absent.
set -u
visa=$1
tests=$2
corpus=${3:-}
. "$(dirname "$0")/lib.sh"

if [ -n "$corpus" ]; then
  if [ ! -f "$corpus/ew_add.visaasm" ]; then echo "SKIPPED: $corpus/ew_add.visaasm not found"; exit 77; fi
  ew=$corpus/ew_add.visaasm
  check ew-list 0 "$visa" run "$ew" --list-inputs
  grep_out ew-list-head "^kernel 'ew_add': Target=\"3d\" (OpenCL model), SimdSize=16, PerThreadInputSize=64; Xe2: 64-byte GRF, local-id rows of 64 bytes; 17 inputs, 16 take an --arg$" "$tmp/out"
  grep_out ew-list-lid "^  0  V0041      64    32  16 x w    per-thread (local_id_x)   yes   none (per-thread local_id_x)$" "$tmp/out"
  grep_out ew-list-inline "^  2  V0034     136     8  uq        cross-thread inline       yes   uq: N, or a pointer: buf:SIZE\[:INIT\] or @N$" "$tmp/out"
  grep_out ew-list-unread "^  5  V0084     192     8  uq        cross-thread              no    " "$tmp/out"
  grep_out ew-list-lsize "^ 16  V0040     280    12  3 x d     cross-thread              yes   3 x d: A,B,C or local_size, " "$tmp/out"
  # c = a + b over 2 groups of 32: the memrefs' (allocated, aligned) pointers, then their
  # (offset, size, stride), then the local size (docs/launch.md, "ew_add")
  want=$(seq 0 63 | awk '{ printf "%s%s.5", (NR > 1 ? " " : ""), $1 }')
  check ew-run 0 "$visa" run "$ew" --groups 2 --local-size 32 \
    --arg buf:256:iota:f --arg @0 --arg buf:256:fill:f:0.5 --arg @1 --arg buf:256 --arg @2 \
    --arg 0 --arg 64 --arg 1 --arg 0 --arg 64 --arg 1 --arg 0 --arg 64 --arg 1 --arg local_size --print 2:f
  grep_out ew-run-c "^$want$" "$tmp/out"
  # a local size that is not a multiple of SIMD16: 2 groups of 24, c[i] for i < 48, the rest 0
  want=$( (seq 0 47 | awk '{ printf "%s%s.5", (NR > 1 ? " " : ""), $1 }'; for i in $(seq 48 63); do printf ' 0'; done) )
  check ew-run-tail 0 "$visa" run "$ew" --groups 2 --local-size 24 \
    --arg buf:256:iota:f --arg @0 --arg buf:256:fill:f:0.5 --arg @1 --arg buf:256 --arg @2 \
    --arg 0 --arg 64 --arg 1 --arg 0 --arg 64 --arg 1 --arg 0 --arg 64 --arg 1 --arg V0040=local_size --print 2:f
  grep_out ew-run-tail-c "^$want$" "$tmp/out"
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi

k=$tests/emu/ocl_gid.visaasm
ok=(--arg buf:176 --arg 3 --arg 10,4 --arg local_size)
check ok 0 "$visa" run "$k" --groups 2 --local-size 20 "${ok[@]}"
check help 0 "$visa" run --help
grep_out help-local "--local-size X,Y,Z" "$tmp/out"
grep_out help-list "--list-inputs" "$tmp/out"
grep_out help-keywords "local_size, global_size, group_count, global_offset" "$tmp/out"
# --list-inputs on our kernel: one line per input
check list 0 "$visa" run "$k" --list-inputs
grep_out list-head "^kernel 'ocl_gid': Target=\"3d\" (OpenCL model), SimdSize=16, PerThreadInputSize=64; Xe2: 64-byte GRF, local-id rows of 64 bytes; 5 inputs, 4 take an --arg$" "$tmp/out"
grep_out list-cols "^  #  name  offset  size  type      role                      read  --arg$" "$tmp/out"
grep_out list-lx "^  0  LX        64    32  16 x uw   per-thread (local_id_x)   yes   none (per-thread local_id_x)$" "$tmp/out"
grep_out list-out "^  1  OUT      128     8  uq        cross-thread inline       yes   uq: N, or a pointer: buf:SIZE\[:INIT\] or @N$" "$tmp/out"
grep_out list-k "^  2  K        136     4  d         cross-thread inline       yes   d: N or work_dim$" "$tmp/out"
grep_out list-v "^  3  V        140     8  2 x d     cross-thread inline       yes   2 x d: A,B$" "$tmp/out"
grep_out list-ls "^  4  LS       192    12  3 x d     cross-thread              yes   3 x d: A,B,C or local_size, global_size, group_count, global_offset, enqueued_local_size$" "$tmp/out"
# on a 32-byte-GRF platform the same offsets mean other registers: PerThreadInputSize=64 is two
# 32-byte rows (r1 x, r2 y), so offset 64 is local id y, and the inline window is r3 (96-127)
check list-xehpg 0 "$visa" run "$k" --list-inputs --platform XeHPG
grep_out list-xehpg-rows "XeHPG: 32-byte GRF, local-id rows of 32 bytes" "$tmp/out"
grep_out list-xehpg-lx "^  0  LX        64    32  16 x uw   per-thread (local_id_y)   yes   none (per-thread local_id_y)$" "$tmp/out"
grep_out list-xehpg-out "^  1  OUT      128     8  uq        cross-thread              yes" "$tmp/out"
# a CM kernel: every input takes an argument
check list-cm 0 "$visa" run "$tests/../examples/saxpy.visaasm" --list-inputs
grep_out list-cm-head "^kernel 'saxpy': Target=\"cm\" (CM model)" "$tmp/out"

# launch errors: exit 1, FILE: error: message (the library's with their ids)
err() { # NAME PATTERN ARGS...
  local name=$1 pat=$2
  shift 2
  check "$name" 1 "$visa" run "$@"
  grep_out "$name-text" "$pat" "$tmp/err"
}
err local-zero "ocl_gid.visaasm: error: local size 0,1,1: every dimension must be at least 1" "$k" --local-size 0 "${ok[@]}"
err local-zero-y "ocl_gid.visaasm: error: local size 4,0,1: every dimension must be at least 1" "$k" --local-size 4,0 "${ok[@]}"
err both-sizes "ocl_gid.visaasm: error\[E-LAUNCH-SIZES-BOTH\]: give a local size (work-items per group) or a group size (threads per group), not both" "$k" --local-size 16 --group-size 1 "${ok[@]}"
err too-many-threads "ocl_gid.visaasm: error\[E-LAUNCH-LOCAL-THREADS\]: local size 8192,1,1 is 8192 work-items, 512 SIMD16 threads; a group has at most 255" "$k" --local-size 8192 "${ok[@]}"
err vector-count "ocl_gid.visaasm: error\[E-INPUT-VECTOR-COUNT\]: input V is 2 x d: 3 values given" "$k" --arg buf:176 --arg 3 --arg 10,4,5 --arg local_size
err vector-count-named "ocl_gid.visaasm: error\[E-INPUT-VECTOR-COUNT\]: input LS is 3 x d: 2 values given" "$k" --arg LS=1,2 --arg buf:176 --arg 3 --arg 10,4
err unknown-keyword "ocl_gid.visaasm: error: unknown --arg keyword 'local_sizes' (local_size, global_size" "$k" --arg buf:176 --arg 3 --arg 10,4 --arg local_sizes
err unknown-name "ocl_gid.visaasm: error\[E-INPUT-UNKNOWN-NAME\]: kernel 'ocl_gid' has no input named 'NOPE'" "$k" "${ok[@]}" --arg NOPE=1
err per-thread-named "ocl_gid.visaasm: error\[E-INPUT-FILLED-BY-LAUNCH\]: input LX is per-thread (local_id_x): the launch fills it, it takes no argument" "$k" --arg LX=1 "${ok[@]}"
err named-twice "ocl_gid.visaasm: error\[E-INPUT-TWICE\]: input K is given twice" "$k" --arg K=1 --arg K=2 --arg buf:176 --arg 10,4 --arg local_size
err keyword-size "ocl_gid.visaasm: error\[E-INPUT-KEYWORD-SIZE\]: input K is 1 x d (4 bytes); local_size gives 3 x ud" "$k" --arg K=local_size --arg buf:176 --arg 10,4 --arg local_size
err keyword-surface-size "ocl_gid.visaasm: error\[E-INPUT-KEYWORD-SIZE\]: input V is 2 x d (8 bytes); group_count gives 3 x ud" "$k" --arg buf:176 --arg 3 --arg group_count --arg local_size
err too-few "ocl_gid.visaasm: error\[E-INPUT-COUNT\]: kernel 'ocl_gid' takes 4 arguments (its .input variables), 3 given" "$k" --arg buf:176 --arg 3 --arg 10,4
err too-few-named "ocl_gid.visaasm: error\[E-INPUT-COUNT-NAMED\]: kernel 'ocl_gid' takes 3 positional arguments besides the 1 named, 2 given" "$k" --arg K=3 --arg buf:176 --arg 10,4
err extra-number "ocl_gid.visaasm: error\[E-INPUT-EXTRA-NUMBER\]: kernel 'ocl_gid' takes 4 arguments (its .input variables); argument 5 is a number" "$k" "${ok[@]}" --arg 7
# the kernel's attributes: a 3d kernel needs SimdSize; PerThreadInputSize must be whole local-id rows
sed '/SimdSize/d' "$k" >"$tmp/nosimd.visaasm"
err no-simd "nosimd.visaasm: error\[E-LAUNCH-SIMD-MISSING\]: kernel 'ocl_gid' is Target=\"3d\" without a SimdSize attribute: a launch needs 8, 16 or 32" "$tmp/nosimd.visaasm" "${ok[@]}"
sed 's/PerThreadInputSize=64/PerThreadInputSize=48/' "$k" >"$tmp/ptis.visaasm"
err bad-ptis "ptis.visaasm: error\[E-LAUNCH-PER-THREAD-INPUT\]: kernel 'ocl_gid': PerThreadInputSize=48 is not 1, 2 or 3 local-id rows of 64 bytes (SIMD16, 64-byte GRF)" "$tmp/ptis.visaasm" "${ok[@]}"
# malformed values stay usage errors (exit 2)
check bad-vector 2 "$visa" run "$k" --arg buf:176 --arg 3 --arg 10,x --arg local_size
check bad-buffer-ref 2 "$visa" run "$k" --arg @0 --arg 3 --arg 10,4 --arg local_size
check bad-local-size 2 "$visa" run "$k" --local-size 4,x "${ok[@]}"
check bad-global-offset 2 "$visa" run "$k" --global-offset -1 "${ok[@]}"
# the CM model: --local-size is one thread per work-item, the same as --group-size: two threads
# each add 2x to y, so y = 4x + 1
cm=(--arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2 --arg 16 --print 1:f)
check cm-local 0 "$visa" run "$tests/../examples/saxpy.visaasm" --local-size 2 "${cm[@]}"
grep_out cm-local-out "^1 5 9 13 17 21 25 29 33 37 41 45 49 53 57 61$" "$tmp/out"
check cm-both 1 "$visa" run "$tests/../examples/saxpy.visaasm" --local-size 2 --group-size 2 "${cm[@]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
