#!/bin/sh
# region.sh VISA -- the contract of `visa region`: the text grid (expected lines worked out by
# hand from the spec's pseudo-code), the broken rules and the exit status (0 none that is an
# error, 1 an error rule or a malformed operand, 2 usage), the caret under a syntax error, and
# a well-formed SVG (xmllint when it is installed).
visa=$1
tmp=${TMPDIR:-/tmp}/visa-region.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # NAME EXPECTED-FILE ACTUAL-FILE
  if cmp -s "$2" "$3"; then passed=$((passed + 1)); else
    echo "FAIL $1"; diff "$2" "$3" | head -20; failed=$((failed + 1)); fi
}
ok() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

# V(1,2)<8;4,2>, w, SIMD16, Xe2: origin row 1 word 2; lane i of row r = i/4 is word
# 2 + 8r + 2(i%4) of row 1 (32 words a GRF): lanes 0-14 on words 2, 4, ..., 30, lane 15 on word
# 32 = row 2 word 0.
cat > "$tmp/want" <<'EOT'
V(1,2)<8;4,2>  source, type w (2 bytes), exec size 16, Xe2 (64-byte GRF)
element   0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
row 1     .  . 00  . 01  . 02  . 03  . 04  . 05  . 06  . 07  . 08  . 09  . 10  . 11  . 12  . 13  . 14  .
row 2    15  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
no region rule broken
EOT
"$visa" region 'V(1,2)<8;4,2>' --type w --exec 16 > "$tmp/out"; rc=$?
check "grid Xe2" "$tmp/want" "$tmp/out"
ok "no rule broken: exit 0" '[ $rc = 0 ]'

# the same on XeHPG (32-byte GRF): words 18, 20, ... reach row 3: three GRFs (rule 6)
"$visa" region 'V(1,2)<8;4,2>' --type w --exec 16 --platform XeHPG > "$tmp/out"; rc=$?
ok "3 GRFs: exit 1" '[ $rc = 1 ]'
ok "3 GRFs: rows 1-3" '[ "$(grep -c "^row " "$tmp/out")" = 3 ]'
ok "3 GRFs: rule" 'grep -q "^V-REGION-GRF-SPAN error: the source spans 3 GRFs of 32 bytes" "$tmp/out"'

# figure 3's V2(1,0)<0;1,0>: all 16 lanes on one byte, lane 0 shown, '+' for the others
"$visa" region 'V2(1,0)<0;1,0>' --type ub --exec 16 --platform XeHPG > "$tmp/out"
ok "broadcast cell" 'grep -q "^row 1   +00  \.  \." "$tmp/out"'

# rows 32 dwords (4 GRFs of 32 bytes) apart: rows 0 and 4 drawn, one "..." line between
"$visa" region 'V(0,1)<32;1,0>' --type d --exec 2 --platform XeHPG > "$tmp/out"
cat > "$tmp/want" <<'EOT'
row 0     . 00  .  .  .  .  .  .
...
row 4     . 01  .  .  .  .  .  .
EOT
sed -n '3,5p' "$tmp/out" > "$tmp/got"
check "skipped GRFs" "$tmp/want" "$tmp/got"

# a warning rule alone keeps exit 0; a destination with HorzStride 0 is an error
"$visa" region 'V(0,9)<1;1,0>' --type d --exec 1 --platform Gen9 > "$tmp/out"; rc=$?
ok "column warning: exit 0" '[ $rc = 0 ] && grep -q "^V-REGION-COL warning:" "$tmp/out"'
"$visa" region 'V(0,0)<0>' --type w --exec 8 > "$tmp/out"; rc=$?
ok "dst hstride 0: exit 1" '[ $rc = 1 ] && grep -q "^V-REGION-DST-HSTRIDE error:" "$tmp/out"'

# a malformed operand: the message at its column and a caret under it, exit 1
"$visa" region 'V(1,2)<8;4,2' --type w --exec 16 > "$tmp/out" 2> "$tmp/err"; rc=$?
cat > "$tmp/want" <<'EOT'
<operand>:1:13: error: expected '>'
    V(1,2)<8;4,2
                ^
EOT
check "syntax error caret" "$tmp/want" "$tmp/err"
ok "syntax error: exit 1, nothing on stdout" '[ $rc = 1 ] && [ ! -s "$tmp/out" ]'

# usage errors: exit 2
"$visa" region 'V(0,0)<1>' --type w > /dev/null 2>&1; rc=$?
ok "no --exec: exit 2" '[ $rc = 2 ]'
"$visa" region 'V(0,0)<1>' --type zz --exec 8 > /dev/null 2>&1; rc=$?
ok "unknown type: exit 2" '[ $rc = 2 ]'
"$visa" region 'V(0,0)<1>' --type w --exec 3 > /dev/null 2>&1; rc=$?
ok "exec 3: exit 2" '[ $rc = 2 ]'
"$visa" region 'V(0,0)<1>' --type w --exec 8 --bogus > /dev/null 2>&1; rc=$?
ok "unknown option: exit 2" '[ $rc = 2 ]'
"$visa" region 'r[A0(0),0]<1,0>:f' --exec 4 > /dev/null 2>&1; rc=$?
ok "multi-address without --addr: exit 2" '[ $rc = 2 ]'
"$visa" region --help | grep -q '^usage: visa region'; rc=$?
ok "--help" '[ $rc = 0 ]'

# SVG: one rect per cell of the two GRF lines plus the background, each lane's number once
"$visa" region 'V(1,2)<8;4,2>' --type w --exec 16 --svg "$tmp/r.svg" > /dev/null; rc=$?
ok "svg written" '[ $rc = 0 ] && [ -s "$tmp/r.svg" ]'
ok "svg cells" '[ "$(grep -c "<rect " "$tmp/r.svg")" = 65 ]'
ok "svg lanes" '[ "$(grep -c "text-anchor=\"middle\">[0-9]*</text>" "$tmp/r.svg")" = 16 ]'
# the operand's '<' and ';' are escaped in the title
ok "svg title escaped" 'grep -q "V(1,2)&lt;8;4,2&gt;" "$tmp/r.svg"'
if command -v xmllint > /dev/null 2>&1; then
  ok "svg well-formed (xmllint)" 'xmllint --noout "$tmp/r.svg"'
  "$visa" region 'r[A1(0),0]<1,0>:f' --exec 4 --addr 4,28,40,52 --platform XeHPG --svg "$tmp/m.svg" > /dev/null
  ok "multi-address svg well-formed" 'xmllint --noout "$tmp/m.svg"'
else
  echo "SKIPPED: xmllint not installed (SVG well-formedness)"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
