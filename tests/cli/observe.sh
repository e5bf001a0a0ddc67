#!/bin/sh
# observe.sh VISA DIR -- visa run --trace / --profile on tests/cli/diverge.visaasm (a goto if/else
# and a three-trip loop, SIMD8).  Expected lines are worked out by hand: X = 0..7; P1 = X < 3 is
# lanes 0-2; (!P1) goto sends lanes 3-7 (0xf8) to ELSE, lanes 0-2 run mul (Y = 2X) and goto JOIN,
# whereupon ELSE runs with lanes 3-7 (Y = X + 100); the loop adds X three times.  A label is an
# executed instruction of exec size 1 (its exec shows channel 0).
visa=$1 dir=$2
k=$dir/cli/diverge.visaasm
tmp=${TMPDIR:-/tmp}/visa-observe.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # NAME EXPECTED-FILE ACTUAL-FILE
  if cmp -s "$2" "$3"; then passed=$((passed + 1)); else
    echo "FAIL $1"; diff "$2" "$3" | head -20; failed=$((failed + 1)); fi
}
ok() { if eval "$2"; then passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

F=$k
cat > "$tmp/want" <<EOT
G<0,0,0>.T0 $F:12 mov exec=0xff X.d = [0 1 2 3 4 5 6 7]
G<0,0,0>.T0 $F:13 cmp exec=0xff
G<0,0,0>.T0 $F:14 goto exec=0xf8
G<0,0,0>.T0 $F:15 mul exec=0x07 Y.d = [0 2 4 _ _ _ _ _]
G<0,0,0>.T0 $F:16 goto exec=0x07
G<0,0,0>.T0 $F:17 label exec=0x0
G<0,0,0>.T0 $F:18 add exec=0xf8 Y.d = [_ _ _ 103 104 105 106 107]
G<0,0,0>.T0 $F:19 label exec=0x1
G<0,0,0>.T0 $F:20 mov exec=0x1 I.d = [0]
G<0,0,0>.T0 $F:21 label exec=0x1
G<0,0,0>.T0 $F:22 add exec=0xff Y.d = [0 3 6 106 108 110 112 114]
G<0,0,0>.T0 $F:23 add exec=0x1 I.d = [1]
G<0,0,0>.T0 $F:24 cmp exec=0x1
G<0,0,0>.T0 $F:25 jmp exec=0x1
G<0,0,0>.T0 $F:21 label exec=0x1
G<0,0,0>.T0 $F:22 add exec=0xff Y.d = [0 4 8 109 112 115 118 121]
G<0,0,0>.T0 $F:23 add exec=0x1 I.d = [2]
G<0,0,0>.T0 $F:24 cmp exec=0x1
G<0,0,0>.T0 $F:25 jmp exec=0x1
G<0,0,0>.T0 $F:21 label exec=0x1
G<0,0,0>.T0 $F:22 add exec=0xff Y.d = [0 5 10 112 116 120 124 128]
G<0,0,0>.T0 $F:23 add exec=0x1 I.d = [3]
G<0,0,0>.T0 $F:24 cmp exec=0x1
G<0,0,0>.T0 $F:25 jmp exec=0x0
G<0,0,0>.T0 $F:26 lsc_store exec=0x1
G<0,0,0>.T0 $F:27 ret exec=0x1
EOT
"$visa" run "$k" --arg buf:32 --trace > "$tmp/got"
check trace "$tmp/want" "$tmp/got"

# filters: lanes 2-4 of lines 15-18
cat > "$tmp/want" <<EOT
G<0,0,0>.T0 $F:15 mul exec=0x07 Y.d = [4 _ _]
G<0,0,0>.T0 $F:16 goto exec=0x07
G<0,0,0>.T0 $F:17 label exec=0x0
G<0,0,0>.T0 $F:18 add exec=0xf8 Y.d = [_ 103 104]
EOT
"$visa" run "$k" --arg buf:32 --trace --trace-lanes 2-4 --trace-lines 15-18 > "$tmp/got"
check trace-filters "$tmp/want" "$tmp/got"

# 3 groups of 2 threads: group 2 thread 1 only; and the whole trace is the same for any --threads
"$visa" run "$k" --arg buf:32 --groups 3 --group-size 2 --trace-thread 2,1 --trace-lines 15-15 > "$tmp/got"
echo "G<2,0,0>.T1 $F:15 mul exec=0x07 Y.d = [0 2 4 _ _ _ _ _]" > "$tmp/want"
check trace-thread "$tmp/want" "$tmp/got"
"$visa" run "$k" --arg buf:32 --groups 6 --group-size 2 --trace --threads 1 > "$tmp/t1"
"$visa" run "$k" --arg buf:32 --groups 6 --group-size 2 --trace --threads 4 --trace-out "$tmp/t4"
check trace-threads "$tmp/t1" "$tmp/t4"
ok trace-count '[ "$(wc -l < "$tmp/t1")" -eq $((12 * 26)) ]'

# JSON: one object per line with the same fields, checked against a strict pattern
"$visa" run "$k" --arg buf:32 --trace --trace-format json > "$tmp/j"
num='-?[0-9]+'
obj="^\\{\"group\":\\[$num,$num,$num\\],\"thread\":$num,\"step\":$num,\"file\":\"[^\"]*\",\"line\":$num,\"op\":\"[a-z_.0-9]+\",\"exec_size\":$num,\"exec\":\"0x[0-9a-f]+\"(,\"dst\":\"[^\"]*\",\"type\":\"[a-z]+\",\"values\":\\[(($num|null)(,($num|null))*)?\\])?\\}\$"
ok json-lines '[ "$(grep -Ecv "$obj" "$tmp/j")" -eq 0 ] && [ "$(wc -l < "$tmp/j")" -eq 26 ]'
ok json-values 'grep -qF "\"step\":6,\"file\":\"$F\",\"line\":18,\"op\":\"add\",\"exec_size\":8,\"exec\":\"0xf8\",\"dst\":\"Y\",\"type\":\"d\",\"values\":[null,null,null,103,104,105,106,107]}" "$tmp/j"'

# profile: 2 groups x 2 threads; per thread the loop body runs 3 times, mul has 3 of 8 lanes
"$visa" run "$k" --arg buf:32 --groups 2 --group-size 2 --profile > "$tmp/p"
ok profile-mul 'grep -Eq "^ +4 +3\\.00 +37\\.5 +0 +[0-9.]+  15: mul " "$tmp/p"'
ok profile-else 'grep -Eq "^ +4 +5\\.00 +62\\.5 +0 +[0-9.]+  18: add " "$tmp/p"'
ok profile-loop 'grep -Eq "^ +12 +8\\.00 +100\\.0 +0 +[0-9.]+  22: add " "$tmp/p"'
ok profile-store 'grep -Eq "^ +4 +1\\.00 +100\\.0 +128 +[0-9.]+  26: lsc_store" "$tmp/p"'
# SIMD executions per thread: mov cmp goto mul goto add + 3 loop adds = 9, partial: goto mul goto add = 4
ok profile-divergence 'grep -q "^104 instructions executed; divergence: 44.4% of SIMD executions (exec size > 1) ran with a partial mask (16 of 36)" "$tmp/p"'
"$visa" run "$k" --arg buf:32 --groups 2 --group-size 2 --profile-format json > "$tmp/pj"
ok profile-json 'grep -q "\"line\":22,\"mnemonic\":\"add\",\"executions\":12,\"exec_size\":8,\"active_lanes\":8.000000,\"simd_efficiency\":1.000000" "$tmp/pj" && grep -q "^{\"instructions\":104,\"divergence\":0.444444," "$tmp/pj"'

# SVG: well-formed, one row per thread
"$visa" run "$k" --arg buf:32 --groups 2 --group-size 3 --profile-svg "$tmp/p.svg" > /dev/null
ok svg-rows '[ "$(grep -c "<g class=\"thread\"" "$tmp/p.svg")" -eq 6 ]'
if command -v xmllint > /dev/null 2>&1; then
  ok svg-xml 'xmllint --noout "$tmp/p.svg"'
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
