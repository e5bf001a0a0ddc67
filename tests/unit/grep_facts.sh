#!/bin/sh
# grep_facts.sh -- table facts are named, not typed as numbers, outside src/isa/.
# Usage: grep_facts.sh SRC_DIR          (SRC_DIR = the repository's src/)
#
# enums.def and predefined.def give every SFID, precision, LSC operation/order, atomic operation
# and predefined variable a C name (VISA_SFID_UGM, VISA_PRECISION_BF, VISA_LSC_OP_LOAD,
# VISA_ATOMIC_FADD, VISA_PREDEF_R0, ...).  Each pattern below finds one way of typing such a fact
# as a bare number; a line it finds is a failure.  The patterns:
#  1 sfid_cmp     a field named *sfid* compared (== / !=) with an integer literal
#  2 prec_cmp     a precision field (prec*, wp, ap, the F_W/F_A of an info word) compared with one
#  3 order_cmp    an LSC data-order field (*order, *_ORD operand) compared with / set to one
#  4 predef_idx   a predefined variable's offset indexed by a literal (var_off[14], off[7])
#  5 predef_id    a variable id compared with a nonzero literal (id == 15: %ce0); sampler lines
#                 are skipped (sampler ids are not predefined variables)
#  6 redeclare    an enum constant spelled like a table fact defined with a number
#                 (SFID_DC0 = 0xA, SF_SLM = 3, P_BF = 9, OP_FENCE = 0x1F, AOP_FADD = 19 ...);
#                 a code a part adds beyond the tables is spelled EMU_... (EMU_AOP_REVSUB)
#  7 prefix_test  a mnemonic prefix test (strncmp(mn, "lsc_..."): ops.def flags say what a form is)
# Range checks of a field's width (sfid > 15) are not facts of the tables and are not matched.
SRC=${1:?usage: grep_facts.sh SRC_DIR}
[ -d "$SRC/isa" ] || { echo "no src/isa under $SRC"; exit 2; }

passed=0
failed=0
check() { # name, extended regex[, lines to skip]
    hits=$(grep -rnE --include='*.c' --include='*.h' "$2" "$SRC" | grep -v "^$SRC/isa/" | grep -vE "${3:-^$}")
    if [ -n "$hits" ]; then
        echo "FAIL $1: a table fact typed as a number:"
        echo "$hits" | sed 's/^/    /'
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

LIT='(0[xX][0-9a-fA-F]+|[0-9]+)[uU]?\b'
check sfid_cmp    "sfid\w*\)?\s*[!=]=\s*$LIT"
check prec_cmp    "(\bprec\w*|\bwp|\bap|F_[WA]\([^)]*\))\s*[!=]=\s*$LIT"
check order_cmp   "(\border|_ORD\)|_ORD\]\.u\.num)\s*([!=]=|=)\s*$LIT"
check predef_idx  "\b(var_off|off)\[[0-9]+\]"
check predef_id   "(->|\.)id\s*[!=]=\s*[1-9][0-9]*\b" "sampler"
check redeclare   "\b(SFID|SF|AOP|OP|P|PREC|LSC|ATOMIC|PREDEF)_[A-Z0-9_]+\s*=\s*$LIT"
check prefix_test "str(n)?cmp\([^,]*,\s*\"lsc_"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
