#!/bin/sh
# grep_desc.sh -- send descriptors are decoded through the getters of src/isa/desc_fields.h only.
# Usage: grep_desc.sh SRC_DIR          (SRC_DIR = the repository's src/)
#
# src/isa/desc_fields.def gives every field of a message descriptor and extended descriptor its
# bits once; desc_fields.h expands the rows into getters (desc_mlen(desc), exdesc_sfid(exdesc),
# ...).  A line that shifts or masks a descriptor itself types a field's position a second time.
# A descriptor is a variable or member named desc, exdesc or ex (lsc.c's name for ExDesc); the
# patterns:
#  1 desc_shift  shifted right by 0..31 or by a variable (desc >> 25, d->desc >> bit); a shift by
#                32 or more is no field of a 32-bit word (the text hooks split raw_sendg's 64-bit
#                descriptor into halves with desc >> 32)
#  2 desc_mask   masked with a literal (desc & 0xFF, exdesc &= ~0x2Fu)
SRC=${1:?usage: grep_desc.sh SRC_DIR}
[ -f "$SRC/isa/desc_fields.h" ] || { echo "no src/isa/desc_fields.h under $SRC"; exit 2; }

passed=0
failed=0
check() { # name, extended regex
    hits=$(grep -rnE --include='*.c' --include='*.h' "$2" "$SRC" | grep -v "^$SRC/isa/desc_fields\.h:")
    if [ -n "$hits" ]; then
        echo "FAIL $1: a descriptor field decoded by hand (use src/isa/desc_fields.h):"
        echo "$hits" | sed 's/^/    /'
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

DESC='\b(desc|exdesc|ex)\b\s*'
check desc_shift "$DESC>>\s*([0-9]|[12][0-9]|3[01]|[A-Za-z_][A-Za-z_0-9]*)\b"
check desc_mask  "$DESC&=?\s*~?\s*\(?\s*(0[xX][0-9a-fA-F]+|[0-9]+)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
