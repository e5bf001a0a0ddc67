#!/usr/bin/env bash
# CLI contract tests: exit codes (0 ok, 1 diagnostics, 2 usage), --help on every command, the
# diagnostic format with source line and caret, and asm/dis/fmt/run/info end to end.
# Usage: run.sh VISA_BINARY TESTS_DIR
set -u
visa=$1
tests=$2
. "$(dirname "$0")/lib.sh"
check version 0 "$visa" --version
grep_out version-text "^visa [0-9]" "$tmp/out"
check help 0 "$visa" --help
check no-args 2 "$visa"
check unknown-command 2 "$visa" frobnicate
for c in fmt asm dis run info; do
  check "help-$c" 0 "$visa" "$c" --help
  grep_out "help-$c-usage" "usage: visa $c" "$tmp/out"
done
check fmt-no-file 2 "$visa" fmt
check fmt-missing-file 1 "$visa" fmt "$tmp/does-not-exist.visaasm"
check fmt-bad-option 2 "$visa" fmt --frob "$tests/text/ops/ADD.visaasm"
check fmt-bad-platform 2 "$visa" fmt --platform Gen42 "$tests/text/ops/ADD.visaasm"
check fmt-ok 0 "$visa" fmt "$tests/text/ops/ADD.visaasm" -o "$tmp/add.visaasm"
check fmt-identical 0 cmp "$tmp/add.visaasm" "$tests/text/ops/ADD.visaasm"
# a diagnostic: file:line:col: error: message, the source line, a caret under the column
printf '.version 4.1\n.kernel "k"\n.decl V32 v_type=G type=d num_elts=8\n    add (M1, 8) V32(0,0)<1> V33(0,0)<1;1,0> 0x1:d\n' >"$tmp/bad.visaasm"
check fmt-error 1 "$visa" fmt "$tmp/bad.visaasm"
grep_out diag-format "bad.visaasm:4:29: error: undefined variable 'V33'" "$tmp/err"
grep_out diag-source "    add (M1, 8) V32(0,0)<1> V33(0,0)<1;1,0> 0x1:d" "$tmp/err"
grep_out diag-caret "^                                ^$" "$tmp/err"
check asm 0 "$visa" asm "$tests/text/ops/LSC_UNTYPED.visaasm" -o "$tmp/lsc.isa"
check dis 0 "$visa" dis "$tmp/lsc.isa" -o "$tmp/lsc.visaasm"
check asm-dis-identical 0 cmp "$tmp/lsc.visaasm" "$tests/text/ops/LSC_UNTYPED.visaasm"
check fmt-of-object 0 "$visa" fmt "$tmp/lsc.isa"
printf 'CISA\004\001\001' >"$tmp/trunc.isa"
check dis-truncated 1 "$visa" dis "$tmp/trunc.isa"
grep_out dis-offset "trunc.isa:+0x" "$tmp/err"
check info-ok 0 "$visa" info add
grep_out info-opcode "opcode:     0x01" "$tmp/out"
check info-unknown 1 "$visa" info frobnicate
check run-bad-option 2 "$visa" run --frob "$tests/text/ops/ADD.visaasm"
check run-bad-arg 2 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:xyz
# the examples `make demo` shows verify clean (the demo stops on an error)
for f in "$tests"/../examples/*.visaasm; do
  check "verify-example-$(basename "$f")" 0 "$visa" verify "$f"
done
check run-print-range 2 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:64 --arg buf:64 --arg 2 --arg 16 --print 3:f
# one --arg per .input: too few leave an input unset, a number past the inputs is a mistake; a
# buffer past the inputs is fine (messages reach it by binding-table index)
check run-too-few-args 1 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:64 --arg buf:64 --arg 2
grep_out run-too-few-args-text "saxpy.visaasm: error\[E-INPUT-COUNT\]: kernel 'saxpy' takes 4 arguments (its .input variables), 3 given" "$tmp/err"
check run-extra-number 1 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:64 --arg buf:64 --arg 2 --arg 16 --arg 5
grep_out run-extra-number-text "argument 5 is a number" "$tmp/err"
check run-extra-buffer 0 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:64 --arg buf:64 --arg 2 --arg 16 --arg buf:8
check run-no-kernel 1 "$visa" run "$tests/../examples/saxpy.visaasm" --kernel nope --arg buf:64 --arg buf:64 --arg 2 --arg 16
grep_out run-no-kernel-text "saxpy.visaasm: error: no kernel named 'nope'" "$tmp/err"
check run-ok 0 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2 --arg 16 --print 1:f
grep_out run-output "^1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31$" "$tmp/out"
check run-oob 1 "$visa" run "$tests/../examples/saxpy.visaasm" --arg buf:8 --arg buf:64 --arg 2 --arg 16
grep_out run-oob-diag "error\[E-RUN-OOB-GLOBAL\]: runtime error in 'lsc_load'.*lane 2" "$tmp/err"
# determinism: the same ND-range on 1, 2 and 8 host threads writes identical bytes, and a run
# whose groups fault reports the same (lowest) group, thread and lane every time
for n in 1 2 8; do
  check "det-run-$n" 0 "$visa" run "$tests/emu/groups.visaasm" --no-verify --groups 64 --threads $n \
    --arg buf:8192 --arg 64 --out "0=$tmp/det$n.bin"
  check "det-fault-$n" 1 "$visa" run "$tests/emu/groups.visaasm" --no-verify --groups 64 --threads $n \
    --arg buf:4000 --arg 64
  cp "$tmp/err" "$tmp/det-err$n"
done
check det-bytes-2 0 cmp "$tmp/det1.bin" "$tmp/det2.bin"
check det-bytes-8 0 cmp "$tmp/det1.bin" "$tmp/det8.bin"
check det-fault-2 0 cmp "$tmp/det-err1" "$tmp/det-err2"
check det-fault-8 0 cmp "$tmp/det-err1" "$tmp/det-err8"
grep_out det-fault-group "out of bounds \[group 31, thread 0, lane 0\]" "$tmp/det-err8"
# input size limit: a file over the limit is refused, and endless standard input stops there
check input-over-limit 1 env VISA_MAX_INPUT_BYTES=64 "$visa" fmt "$tests/text/ops/ADD.visaasm"
grep_out input-over-limit-msg "larger than 64 bytes, the limit for an input" "$tmp/err"
check input-endless-stdin 1 sh -c "yes | VISA_MAX_INPUT_BYTES=1000000 '$visa' fmt -"
grep_out input-endless-msg "larger than 1000000 bytes" "$tmp/err"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
