#!/usr/bin/env bash
# Runs both IGC corpus kernels (../shared/corpus/igc-dumps, XeTLA paged attention) on Xe2 with
# generated inputs: they must run to completion (no unsupported instruction, no fault), write
# their outputs, and give the same bytes on 1 and 2 host threads.  Exit 77 (skipped) without the
# corpus.  The inputs: every data buffer is hf 0.25 (or f 1 / f 0 for the reduce kernel's
# exp-sum and max-logit inputs), block tables 0, context lengths 1024 tokens (two full 512-token
# partitions: a partial partition would leave some of a group's 8 threads out of its barrier).
# Usage: corpus_run.sh VISA_BINARY CORPUS_DIR
set -u
visa=$1
dir=$2
[ -f "$dir/paged_attention_kernel.a.visaasm" ] || { echo "corpus not found in $dir: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
run() { # NAME FILE ARGS...: run on 1 and 2 threads, compare every output buffer
  local name=$1 file=$2
  shift 2
  local outs1=() outs2=() n=$NOUT
  for ((k = 0; k < n; k++)); do outs1+=(--out "$k=$tmp/$name.1.$k"); outs2+=(--out "$k=$tmp/$name.2.$k"); done
  if "$visa" run "$file" --threads 1 --stats "$@" "${outs1[@]}" 2>"$tmp/err1" &&
     "$visa" run "$file" --threads 2 "$@" "${outs2[@]}" 2>"$tmp/err2"; then
    local same=1
    for ((k = 0; k < n; k++)); do cmp -s "$tmp/$name.1.$k" "$tmp/$name.2.$k" || same=0; done
    if [ $same = 1 ]; then pass=$((pass + 1)); echo "ok   $name: $(tail -1 "$tmp/err1" | sed 's/^visa: //')"
    else fail=$((fail + 1)); echo "FAIL $name: outputs differ between 1 and 2 host threads"; fi
    for ((k = 0; k < n; k++)); do echo "     buffer $k: cksum $(cksum < "$tmp/$name.1.$k")"; done
  else
    fail=$((fail + 1)); echo "FAIL $name:"; cat "$tmp/err1" "$tmp/err2" 2>/dev/null | head -3
  fi
}
MB=4194304
# paged_attention_kernel: 10 pointers (data hf 0.25; #8 block tables = 0; #9 context lengths),
# 7 scalars; 8 threads per group, 2x2x2 groups
kargs=()
for i in $(seq 0 9); do
  case $i in
    8) kargs+=(--arg "buf:$MB") ;;
    9) kargs+=(--arg "buf:$MB:fill:ud:1024") ;;
    *) kargs+=(--arg "buf:$MB:fill:hf:0.25") ;;
  esac
done
for i in $(seq 7); do kargs+=(--arg 2); done
NOUT=10 run kernel "$dir/paged_attention_kernel.a.visaasm" --group-size 8 --groups 2,2,2 "${kargs[@]}"
# paged_attention_reduce: out, exp sums (f 1), max logits (f 0), partial outputs (hf 0.5),
# context lengths; 3 scalars
rargs=(--arg "buf:$MB" --arg "buf:$MB:fill:f:1" --arg "buf:$MB:fill:f:0" --arg "buf:$MB:fill:hf:0.5"
       --arg "buf:$MB:fill:ud:1024" --arg 2 --arg 2 --arg 4)
NOUT=5 run reduce "$dir/paged_attention_reduce.a.visaasm" --group-size 8 --groups 1,2,2 "${rargs[@]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
