#!/usr/bin/env bash
# Runs both IGC corpus kernels (../shared/corpus/igc-dumps, XeTLA paged attention) on Xe2 with
# generated inputs: they must run to completion (no unsupported instruction, no fault), write
# their outputs, and give the same bytes on 1 and 2 host threads; the reduce kernel's output is
# checked against its hand-computed value.  Exit 77 (skipped) without the
# corpus.  Whether the outputs are right is emu_corpus_attention's job (corpus_attention.c, which
# also documents the argument meanings); here the inputs are uniform but consistent: Q/K/V hf
# 0.25, block tables 0, context lengths 1024 tokens (two full 512-token partitions: the kernel
# has no barrier for a thread without a block, so partitions must be whole).
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
# paged_attention_kernel pointers: 0 max_logits (f), 1 exp_sums (f), 2 out (hf, per partition),
# 3 tem_out (hf softmax), 4 query, 5 key_cache, 6 value_cache (hf 0.25), 7 alibi_slopes (unused),
# 8 block_tables (0), 9 context_lens; scalars num_queries_per_tokens, sm_scale (unused),
# num_seqs, num_heads (= 8 x num_kv_heads), num_kv_heads, max_blocks_per_seq, softcap (unused).
# Groups (x, y, z) = (partition, sequence, KV head), 8 threads each.
kargs=()
for i in $(seq 0 9); do
  case $i in
    4|5|6) kargs+=(--arg "buf:$MB:fill:hf:0.25") ;;
    9) kargs+=(--arg "buf:$MB:fill:ud:1024") ;;
    *) kargs+=(--arg "buf:$MB") ;;
  esac
done
kargs+=(--arg 8 --arg 1.0 --arg 2 --arg 16 --arg 2 --arg 16 --arg 0.0)
NOUT=10 run kernel "$dir/paged_attention_kernel.a.visaasm" --group-size 8 --groups 2,2,2 "${kargs[@]}"
# paged_attention_reduce: out (hf), tmp_out (the kernel's per-partition out: hf 0.5), max_logits
# (f 0), exp_sums (f 1), context_lens; scalars num_seqs, num_heads, max_num_partitions.
# Groups (x, y, z) = (1, head, sequence).  Every output element is then 0.5.
rargs=(--arg "buf:$MB" --arg "buf:$MB:fill:hf:0.5" --arg "buf:$MB:fill:f:0" --arg "buf:$MB:fill:f:1"
       --arg "buf:$MB:fill:ud:1024" --arg 2 --arg 2 --arg 4)
NOUT=5 run reduce "$dir/paged_attention_reduce.a.visaasm" --group-size 8 --groups 1,2,2 "${rargs[@]}"
# with uniform partial outputs the weights do not matter: out[seq][head][0..127] = 0.5 (hf 0x3800)
# for 2 sequences x 2 heads = 512 elements, and nothing after them is written
if [ -f "$tmp/reduce.1.0" ] &&
   [ "$(od -An -tx2 -v -N1024 "$tmp/reduce.1.0" | tr -s ' ' '\n' | grep -v '^$' | sort -u)" = 3800 ] &&
   [ "$(od -An -tx2 -v -j1024 -N4096 "$tmp/reduce.1.0" | tr -s ' ' '\n' | grep -v '^$' | sort -u)" = 0000 ]; then
  pass=$((pass + 1)); echo "ok   reduce output: 512 elements of 0.5, the rest untouched"
else
  fail=$((fail + 1)); echo "FAIL reduce output: expected 512 hf elements of 0.5 then zeros"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
