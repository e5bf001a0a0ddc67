#!/usr/bin/env bash
# visa run --check=all finds nothing on the examples (README's lines), the IGC dumps (as
# tests/emu/corpus_run.sh runs them) and every xe-forge kernel (docs/launch.md's argument
# pattern; buffers large enough for each kernel's elements per work-item).  The inline-asm
# corpus runs with --check=all in corpus_inline_asm_check.  Exit 77 without the corpus.
# Usage: check_corpus.sh VISA_BINARY SOURCE_DIR CORPUS_DIR
set -u
visa=$1
src=$2
corpus=$3
[ -f "$corpus/igc-dumps/paged_attention_kernel.a.visaasm" ] && [ -f "$corpus/xe-forge/ew_add.visaasm" ] ||
  { echo "SKIPPED: corpus not found in $corpus"; echo "0 passed, 0 failed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
clean() { # NAME ARGS...: exit 0 and no finding
  local name=$1
  shift
  if "$visa" run "$@" --check="${CHECKS:-all}" >"$tmp/out" 2>"$tmp/err" && ! grep -q 'C-' "$tmp/err"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name:"; head -3 "$tmp/err"
  fi
}
clean saxpy "$src/examples/saxpy.visaasm" --arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2.5 --arg 10
clean gemm "$src/examples/gemm.visaasm" --groups 2,1 --arg buf:256:fill:hf:1 --arg buf:1024:fill:hf:0.5 \
  --arg buf:1024 --arg 8 --arg 32 --arg 16
MB=4194304
d=$corpus/igc-dumps
kargs=()
for i in $(seq 0 9); do
  case $i in
    4|5|6) kargs+=(--arg "buf:$MB:fill:hf:0.25") ;;
    9) kargs+=(--arg "buf:$MB:fill:ud:1024") ;;
    *) kargs+=(--arg "buf:$MB") ;;
  esac
done
kargs+=(--arg 8 --arg 1.0 --arg 2 --arg 16 --arg 2 --arg 16 --arg 0.0)
# initcheck's former findings here were false: paged_attention_kernel.a.visaasm:1185 stores V126,
# the dpas results of lines 1124-1131 on 2D block loads (raw_sends, lines 1139-1145 and before);
# paged_attention_reduce.a.visaasm:663 stores V79 = V77[0] (line 628 copies V77 through A0, line
# 630 reads element 0 back), and V77[0] is written by the 2D block load into its alias V282 at
# line 596 (lines 619-625 write elements 1..7).  Zeros loaded over zeros left those bytes
# undefined until 2D block loads and dpas reported their transfers
clean paged_attention_kernel "$d/paged_attention_kernel.a.visaasm" --group-size 8 --groups 2,2,2 "${kargs[@]}"
clean paged_attention_reduce "$d/paged_attention_reduce.a.visaasm" --group-size 8 --groups 1,2,2 \
  --arg "buf:$MB" --arg "buf:$MB:fill:hf:0.5" --arg "buf:$MB:fill:f:0" --arg "buf:$MB:fill:f:1" \
  --arg "buf:$MB:fill:ud:1024" --arg 2 --arg 2 --arg 4
x=$corpus/xe-forge
B=buf:65536
two=(--arg $B:iota:f --arg @0 --arg $B --arg @1 --arg 0 --arg 64 --arg 1 --arg 0 --arg 64 --arg 1 --arg local_size)
three=(--arg $B:iota:f --arg @0 --arg $B:fill:f:0.5 --arg @1 --arg $B --arg @2 --arg 0 --arg 64 --arg 1 --arg 0 --arg 64
       --arg 1 --arg 0 --arg 64 --arg 1 --arg local_size)
for f in "$x"/*.visaasm; do
  n=$(basename "$f" .visaasm)
  case $n in
    dpas_gemm_*) clean "$n" "$f" --local-size 16 --arg 0 --arg $B:fill:hf:1 --arg 0 --arg $B:fill:hf:1 --arg 0 --arg $B \
                   $(for i in $(seq 15); do echo --arg 0; done) ;;
    p1_scalar_store) clean "$n" "$f" --groups 2 --local-size 16 --arg 0 --arg 0 --arg 0 --arg buf:64 \
                       $(for i in $(seq 6); do echo --arg 0; done) ;;
    ew_add|ew_add_masked|ew_div|ew_max|ew_max_masked|ew_mul|ew_mul_masked|ew_sub|ew_sub_masked)
      clean "$n" "$f" --groups 2 --local-size 32 "${three[@]}" ;;
    *) clean "$n" "$f" --groups 2 --local-size 32 "${two[@]}" ;;
  esac
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
