#!/usr/bin/env bash
# The exec byte and the predicate word are decoded in one place, src/ir/ctrl.h.  This test fails
# when bit arithmetic on either reappears anywhere else under src/.  The patterns (extended regex,
# matched per line) only look at expressions that name an exec byte or a predicate word, so
# unrelated masks (0xFFFF, descriptor fields such as `ex & 0xFFF` in lsc.c) do not count:
#   P1  a predicate-word name (pred, ->pred, .pred, pred_word) with a predicate field constant:
#       0xFFF / 0x0FFF (id), 0x1000 (reserved bit), 0x6000 (combine), 0x8000 (inverse), or a
#       shift by 13 or 15 (combine / inverse position)
#   P2  an exec-byte name (exec, ->exec, .exec, or the hooks' `ex` / num_elts `ne`) shifted right
#       by 4 (emask) or masked with 7, 0x7, 0xF, 0x0F or 0xF0 (size code / emask)
#   P3  a mask offset computed by hand from an exec-byte name: `& 7) * 4` or `4u * (`...`& 7`
#   P4  1 << of an exec-byte expression (the lane count)
# Usage: grep_ctrl.sh SRC_DIR
set -u
src=$1
pass=0
fail=0
check() { # name regex
  local hits
  hits=$(grep -rnE --include='*.c' --include='*.h' "$2" "$src" | grep -v '^[^:]*/ir/ctrl\.h:')
  if [ -z "$hits" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    printf 'FAIL %s: exec/predicate bit arithmetic outside src/ir/ctrl.h:\n%s\n' "$1" "$hits" >&2
  fi
}
name_p='(\bpred|->pred|\.pred|pred_word)\b'
name_e='(\bexec|->exec|\.exec|\bex|\bne)\b'
check P1 "${name_p}[^;]*(0x0?[fF]{3}\b|0x1000\b|0x6000\b|0x8000\b|(>>|<<) *1[35]\b)"
check P2 "${name_e}[^;]*(>> *4\b|& *(0x0?)?[7fF]\b|& *0x[fF]0\b)"
check P3 "${name_e}[^;]*& *7u?\)? *\* *4\b|\b4u? *\* *\([^;]*${name_e}[^;]*& *7\b"
check P4 "<< *\(?[^;]*${name_e} *& *(7|0x0?[fF])\b"
# the test must be able to fail: each pattern has to catch the decoding it forbids
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' 'x = (pred & 0x8000) ? 1 : 0;' 'c = (op->pred >> 13) & 3;' 'm = isa_enum_text(E, exec >> 4);' \
  'o = ((ne >> 4) & 7) * 4;' 'n = 1u << (in->exec & 7);' > "$probe/bad.c"
for pat in "${name_p}[^;]*(0x0?[fF]{3}\b|0x1000\b|0x6000\b|0x8000\b|(>>|<<) *1[35]\b)" \
           "${name_e}[^;]*(>> *4\b|& *(0x0?)?[7fF]\b|& *0x[fF]0\b)" "${name_e}[^;]*& *7u?\)? *\* *4\b|\b4u? *\* *\([^;]*${name_e}[^;]*& *7\b" \
           "<< *\(?[^;]*${name_e} *& *(7|0x0?[fF])\b"; do
  if grep -qE "$pat" "$probe/bad.c"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL probe: $pat finds nothing" >&2; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
