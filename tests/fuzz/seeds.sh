#!/usr/bin/env bash
# Collects the fuzzers' seeds into OUT/text (vISA text) and OUT/obj (objects written by
# `visa asm`): the project's test kernels, and when SHARED/corpus exists every .visaasm of
# igc-dumps, xe-forge and inline-asm/*/ (objects assembled for the platform their source names:
# igc-dumps XeHPC, xe-forge Xe2, inline-asm the platform in its manifest.json).  Text that does
# not assemble (the Negative tests) is still a text seed.
# Usage: seeds.sh VISA_BINARY SOURCE_DIR SHARED_DIR OUT
set -u
visa=$1 src=$2 shared=$3 out=$4
mkdir -p "$out/text" "$out/obj"
add() { # FILE PLATFORM PREFIX: copy the text, assemble the object
  local f=$1 plat=$2 name
  name=$3$(basename "$f" .visaasm)
  cp "$f" "$out/text/$name.visaasm"
  "$visa" asm "$f" --platform "$plat" -o "$out/obj/$name.isa" >/dev/null 2>&1 || rm -f "$out/obj/$name.isa"
}
for f in "$src"/tests/text/ops/*.visaasm "$src"/tests/emu/*.visaasm "$src"/examples/*.visaasm; do
  [ -f "$f" ] && add "$f" Xe2 ""
done
for f in "$src"/tests/text/fmt/* "$src"/tests/text/malformed/*; do
  [ -f "$f" ] && cp "$f" "$out/text/"
done
c=$shared/corpus
[ -d "$c" ] || { echo "seeds: no $c, test kernels only"; exit 0; }
for f in "$c"/igc-dumps/*.visaasm; do [ -f "$f" ] && add "$f" XeHPC igc-; done
for f in "$c"/xe-forge/*.visaasm; do [ -f "$f" ] && add "$f" Xe2 xf-; done
for d in "$c"/inline-asm/*/; do
  [ -f "$d/manifest.json" ] || continue
  # manifest.json: "NAME.visaasm": { ... "platform": "P", ... } (one key per line, as written)
  awk '/^ "[^"]*\.visaasm": \{/ { split($0, a, "\""); name = a[2] }
       /"platform":/ { split($0, a, "\""); print name, a[4] }' "$d/manifest.json" |
  while read -r name plat; do
    [ -f "$d/$name" ] && add "$d/$name" "$plat" "ia-$(basename "$d")-"
  done
done
echo "seeds: $(ls "$out/text" | wc -l) text, $(ls "$out/obj" | wc -l) objects in $out"
