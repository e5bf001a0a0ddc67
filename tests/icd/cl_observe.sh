#!/bin/sh
# `visa cl --profile` and `--trace` of tests/icd/cl_profile.c, by hand-worked values, and `visa run
# --profile` of its program.  The kernel scale runs in work-groups of 16 work-items in SIMD16, one
# thread per group: over 64 work-items, 4 threads a launch; it runs twice (k = 2 and k = 3, on two
# queues), so its profile sums 2 launches and 8 threads, and as its code has no branch every one of
# its vISA instructions runs 8 times.  Its source line 4 (int v = in[i]) reads 2 x 64 x 4 = 512
# bytes, line 5 (out[i] = v * k) writes 512; shift's line 8 reads and writes 64 x 4 bytes each.
# The trace of scale's mul (v * k) is lane l of group g: (16g + l) * k.  Standard output is the
# program's alone: the same with or without observing.
# usage: cl_observe.sh VISA CL_PROFILE
visa=$1 host=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { # NAME COMMAND: COMMAND must succeed
    if eval "$2"; then passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi
}
# run NAME VISA-CL-OPTIONS...: the host under `visa cl`, stdout to $tmp/NAME.out, stderr to .err
run() {
    name=$1
    shift
    (cd "$tmp" && "$visa" cl "$@" -- "$host" >"$tmp/$name.out" 2>"$tmp/$name.err")
    rc=$?
    if [ $rc -eq 77 ] || grep -q '^SKIPPED' "$tmp/$name.out"; then cat "$tmp/$name.out"; exit 77; fi
    ok "$name-exit" "[ $rc -eq 0 ]"
    ok "$name-stdout" 'cmp -s "$tmp/plain.out" "$tmp/$name.out"'
}
# section KERNEL FILE: the profile of KERNEL in FILE (its header to the next kernel's)
section() { awk -v k="kernel $1 " 'index($0, "kernel ") == 1 { on = index($0, k) == 1 } on' "$2"; }

run plain
ok plain-quiet '[ ! -s "$tmp/plain.err" ]'

# --profile: on standard error at exit, one section per kernel
run profile --profile
section scale "$tmp/profile.err" >"$tmp/scale"
ok scale-header 'grep -qx "kernel scale (program.cl:scale.visaasm): 2 launches, 8 threads" "$tmp/scale"'
op_row='^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9.]+  [0-9]+: '
ops=$(grep -Ec "$op_row" "$tmp/scale")
ok scale-ops-8-each '[ "$ops" -gt 5 ] && [ "$(grep -E "$op_row" "$tmp/scale" | grep -Evc "^ +8 ")" -eq 0 ]'
ok scale-ret 'grep -Eq "^ +8 +1\\.00 +100\\.0 +0 +[0-9.]+  [0-9]+: ret \\(M1, 1\\)" "$tmp/scale"'
ok scale-total 'grep -q "^$((8 * ops)) instructions executed; divergence: 0.0% " "$tmp/scale"'
src_row() { # BYTES LINE TEXT: a source line's row with its byte count
    printf '^ +[0-9]+ +[0-9.]+ +[0-9.]+ +%s +[0-9.]+  /.*/program\\.cl:%s: %s$' "$1" "$2" "$3"
}
ok scale-line4 'grep -Eq "$(src_row 512 4 "int v = in\\[i\\];")" "$tmp/scale"'
ok scale-line5 'grep -Eq "$(src_row 512 5 "out\\[i\\] = v \\* k;")" "$tmp/scale"'
section shift "$tmp/profile.err" >"$tmp/shift"
ok shift-header 'grep -Eq "^kernel shift \\(program\\.cl:shift\\.visaasm\\): 1 launch, [0-9]+ threads?$" "$tmp/shift"'
ok shift-line8 'grep -Eq "$(src_row 512 8 "out\\[get_global_id\\(0\\)\\] \\+= 1;")" "$tmp/shift"'

run json --profile-format json
ok json-scale 'grep -q "\"kernel\":\"scale\",\"file\":\"program.cl:scale.visaasm\",\"launches\":2,\"threads\":8," "$tmp/json.err"'
ok json-line5 'grep -Eq "\\{\"file\":\"/[^\"]*/program\\.cl\",\"line\":5,\"executions\":[0-9]+,[^}]*\"bytes\":512," "$tmp/json.err"'
ok json-lines '[ "$(grep -c "^{\"instructions\":" "$tmp/json.err")" -eq 2 ]'

# --trace: the line of scale's mul, then only it, lanes 0-3 (each launch's groups in order)
run trace --trace
line=$(sed -n 's/^G<0,0,0>\.T0 program\.cl:scale\.visaasm:\([0-9]*\) mul .*/\1/p' "$tmp/trace.err" | head -n 1)
ok trace-mul '[ -n "$line" ]'
ok trace-all '[ "$(grep -c "^G<[0-9],0,0>\\.T0 program\\.cl:scale\\.visaasm:" "$tmp/trace.err")" -eq $((8 * ops)) ]'
run lines --trace-lines "$line-$line" --trace-lanes 0-3
grep "scale\\.visaasm" "$tmp/lines.err" >"$tmp/mul"
for g in 0 1 2 3; do
    for k in 2 3; do
        v=$((16 * g * k))
        want="G<$g,0,0>.T0 program.cl:scale.visaasm:$line mul exec=0xffff V[0-9]*.d = \\[$v $((v + k)) $((v + 2 * k)) $((v + 3 * k))\\]"
        ok "trace-g$g-k$k" 'grep -qx "$want" "$tmp/mul"'
    done
done
ok trace-only-line '[ "$(wc -l <"$tmp/mul")" -eq 8 ] && ! grep -v "\\.visaasm:$line " "$tmp/lines.err" | grep -q .'
run thread --trace-thread 2,0 --trace-lines "$line-$line" --trace-out trace.txt
ok trace-out-file '[ "$(grep -c "^G<2,0,0>\\.T0 program\\.cl:scale\\.visaasm:$line mul " "$tmp/trace.txt")" -eq 2 ]'
ok trace-out-thread '! grep "scale\\.visaasm" "$tmp/trace.txt" | grep -qv "^G<2,0,0>"'
ok trace-out-not-stderr '[ ! -s "$tmp/thread.err" ]'

# `visa run --profile` of the program: one launch of scale, its source lines too
"$host" --source >"$tmp/p.cl"
"$visa" run "$tmp/p.cl" --kernel scale --build-options -g --global-size 64 --local-size 16 \
    --arg buf:256:iota:d --arg buf:256 --arg 2 --profile >"$tmp/run.out" 2>&1
ok run-header 'grep -qx "kernel scale ($tmp/p.cl:scale.visaasm): 1 launch, 4 threads" "$tmp/run.out"'
ok run-line4 'grep -Eq "^ +[0-9]+ +[0-9.]+ +[0-9.]+ +256 +[0-9.]+  $tmp/p\\.cl:4: int v = in\\[i\\];$" "$tmp/run.out"'

# more observation options than `visa cl` passes on: a usage error (exit 2), not a crash
many=$(i=0; while [ $i -lt 40 ]; do printf -- '--trace '; i=$((i + 1)); done)
# shellcheck disable=SC2086
"$visa" cl $many -- true >/dev/null 2>"$tmp/many.err"
rc=$?
ok many-options-usage '[ $rc -eq 2 ] && grep -q "too many options" "$tmp/many.err"'

echo "cl_observe: $passed passed, $failed failed"
[ $failed -eq 0 ]
