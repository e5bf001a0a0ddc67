#!/bin/sh
# grep_desc.sh -- send descriptors are decoded through the getters of src/isa/desc_fields.h only.
# Usage: grep_desc.sh SRC_DIR          (SRC_DIR = the repository's src/)
#
# src/isa/desc_fields.def gives every field of a message descriptor and extended descriptor its
# bits once; desc_fields.h expands the rows into getters (desc_mlen(desc), exdesc_sfid(exdesc),
# ...).  A line that shifts or masks a descriptor itself types a field's position a second time.
# A descriptor is a variable or member named desc, exdesc or ex (lsc.c's name for ExDesc); a line
# fails when one is
#   shifted right by 0..31 or by a variable (desc >> 25, d->desc >> bit): a shift by 32 or more is
#     no field of a 32-bit word (the text hooks split raw_sendg's 64-bit descriptor: desc >> 32)
#   masked with a literal (desc & 0xFF, exdesc &= ~0x2Fu)
SRC=${1:?usage: grep_desc.sh SRC_DIR}
[ -f "$SRC/isa/desc_fields.h" ] || { echo "no src/isa/desc_fields.h under $SRC"; exit 2; }

DESC='\b(desc|exdesc|ex)\b\s*'
SHIFT="$DESC>>\s*([0-9]|[12][0-9]|3[01]|[A-Za-z_][A-Za-z_0-9]*)\b"
MASK="$DESC&=?\s*~?\s*\(?\s*(0[xX][0-9a-fA-F]+|[0-9]+)"

# the patterns must find what they forbid, and not the 64-bit split
probe=$(printf '%s\n' 'm = desc >> 25 & 0xF;' 'e = (d.exdesc >> 5) & 1;' 'b = h->d->desc >> bit & 1;' \
    's = d->desc & 0xF;' 'd.exdesc &= ~0x2Fu;' 'i = ex >> 24;' 'hi = (uint32_t)(desc >> 32);' |
    grep -cE -e "$SHIFT" -e "$MASK")
[ "$probe" -eq 6 ] || { echo "FAIL probe: the patterns find $probe of the 6 decodings (and not the split)"; exit 1; }

hits=$(grep -rnE --include='*.c' --include='*.h' -e "$SHIFT" -e "$MASK" "$SRC" | grep -v "^$SRC/isa/desc_fields\.h:")
if [ -n "$hits" ]; then
    echo "FAIL: a descriptor field decoded by hand (use src/isa/desc_fields.h):"
    echo "$hits" | sed 's/^/    /'
    exit 1
fi
echo "no descriptor decoded outside src/isa/desc_fields.h"
