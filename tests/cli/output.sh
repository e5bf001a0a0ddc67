#!/usr/bin/env bash
# CLI contract: outputs are never lost or clobbered.  An output that would replace its own input
# is refused (asm, dis, run --out: same device and inode, whatever the spelling); fmt -o X X
# formats in place; a failed write (a full device, or the VISA_TEST_FAIL_WRITE_AFTER test hook
# interrupting it) exits 1 with "visa: cannot write 'PATH': REASON" and leaves an existing target
# as it was; the target keeps its mode; a symlink stays a symlink; /dev/null is written, not replaced.
# Usage: output.sh VISA_BINARY TESTS_DIR
set -u
visa=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the tests cd
tests=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"
ok() { # NAME CONDITION...
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name" >&2; fi
}
no_temp_left() { [ -z "$(find "$tmp/w" -name '.*.??????' 2>/dev/null)" ]; }
saxpy="$tests/../examples/saxpy.visaasm"
add="$tests/text/ops/ADD.visaasm"
runargs=(--arg buf:64:iota:f --arg buf:64:fill:f:1 --arg 2.5 --arg 10)
mkdir "$tmp/w"
cd "$tmp/w" || exit 1

# -- an output that would replace its input is refused; the input is untouched ---------------
cp "$saxpy" k.visaasm
cp k.visaasm k.orig
check asm-self 1 "$visa" asm k.visaasm -o k.visaasm
grep_out asm-self-msg "visa: output 'k.visaasm' would replace the input 'k.visaasm'" "$tmp/err"
check asm-self-kept 0 cmp k.visaasm k.orig
check asm-self-dotslash 1 "$visa" asm k.visaasm -o ./k.visaasm
ln k.visaasm hard.visaasm
check asm-self-hardlink 1 "$visa" asm k.visaasm -o hard.visaasm
check asm-self-hardlink-kept 0 cmp k.visaasm k.orig
check asm-object 0 "$visa" asm k.visaasm -o k.isa
cp k.isa k.isa.orig
check asm-object-default-out 1 "$visa" asm k.isa # the default output k.isa is the input
check dis-self 1 "$visa" dis k.isa -o k.isa
grep_out dis-self-msg "would replace the input 'k.isa'" "$tmp/err"
check dis-self-kept 0 cmp k.isa k.isa.orig
check run-out-self 1 "$visa" run k.visaasm "${runargs[@]}" --out 1=k.visaasm
grep_out run-out-self-msg "visa: output 'k.visaasm' would replace the input 'k.visaasm'" "$tmp/err"
check run-out-self-kept 0 cmp k.visaasm k.orig
check run-trace-out-self 1 "$visa" run k.visaasm "${runargs[@]}" --trace-out k.visaasm
check run-trace-out-self-kept 0 cmp k.visaasm k.orig
# a buffer read from a file and written back to it is not the kernel: allowed
printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >b.bin
check run-out-buffer-inplace 0 "$visa" run k.visaasm --arg buf:64:iota:f --arg buf:64:file=b.bin --arg 2 --arg 16 --out 1=b.bin
ok run-out-buffer-inplace-size [ "$(wc -c <b.bin)" -eq 64 ]

# -- fmt -o X X formats in place (as clang-format -i does) ------------------------------------
sed 's| *///  *\$[0-9]*$||' "$add" >a.visaasm # fmt regenerates the instruction ids
check fmt-inplace 0 "$visa" fmt a.visaasm -o a.visaasm
check fmt-inplace-result 0 cmp a.visaasm "$add"
chmod 640 a.visaasm
check fmt-inplace-mode 0 "$visa" fmt a.visaasm -o a.visaasm
ok fmt-keeps-mode [ "$(stat -c %a a.visaasm)" = 640 ]
check fmt-new-file 0 "$visa" fmt "$add" -o new.visaasm
ok fmt-new-file-mode [ "$(stat -c %a new.visaasm)" = "$(printf '%o' $((0666 & ~$(umask))))" ]
ln -s k.isa link.isa
check asm-through-symlink 0 "$visa" asm k.visaasm -o link.isa
ok symlink-kept [ -L link.isa ]
check symlink-target-written 0 cmp k.isa k.isa.orig
check fmt-dev-null 0 "$visa" fmt "$add" -o /dev/null
ok dev-null-kept [ -c /dev/null ]
ok no-temp-files no_temp_left

# -- a failed write leaves the old file; nothing half-written appears --------------------------
cp k.visaasm old.txt
for c in "fmt $add -o old.txt" "dis k.isa -o old.txt" "asm k.visaasm -o old.txt" \
         "run k.visaasm ${runargs[*]} --out 1=old.txt" "run k.visaasm ${runargs[*]} --trace-out old.txt" \
         "run k.visaasm ${runargs[*]} --profile-svg old.txt"; do
  name="interrupted-${c%% *}-$(echo "$c" | grep -o -- '--[a-z-]*' | tail -1)"
  # shellcheck disable=SC2086
  check "$name" 1 env VISA_TEST_FAIL_WRITE_AFTER=10 "$visa" $c
  grep_out "$name-msg" "visa: cannot write 'old.txt': " "$tmp/err"
  check "$name-kept" 0 cmp old.txt k.orig
done
check interrupted-new-file 1 env VISA_TEST_FAIL_WRITE_AFTER=0 "$visa" fmt "$add" -o never.txt
ok interrupted-no-new-file [ ! -e never.txt ]
ok interrupted-no-temp-files no_temp_left
# the hook is honoured only past its byte count: a large enough limit writes everything
check hook-large-limit 0 env VISA_TEST_FAIL_WRITE_AFTER=100000 "$visa" fmt "$add" -o old.txt
check hook-large-limit-result 0 cmp old.txt "$add"

# -- a full device: every command that writes says so and exits 1 -----------------------------
if [ -c /dev/full ]; then
  full() { # NAME COMMAND... (standard output to /dev/full)
    local name=$1
    shift
    "$@" >/dev/full 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq 1 ] && grep -q "visa: cannot write '/dev/full': No space left on device" "$tmp/err"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL full-$name: exit $got" >&2; head -3 "$tmp/err" >&2
    fi
  }
  full fmt "$visa" fmt "$add"
  full fmt-o "$visa" fmt "$add" -o /dev/full
  full dis "$visa" dis k.isa
  full dis-o "$visa" dis k.isa -o /dev/full
  full asm-stdout "$visa" asm k.visaasm -o -
  full asm-o "$visa" asm k.visaasm -o /dev/full
  full info "$visa" info add
  full help "$visa" --help
  full verify-json "$visa" verify --json "$add"
  full verify-list-rules "$visa" verify --list-rules
  full run-print "$visa" run k.visaasm "${runargs[@]}" --print 1:f
  full run-out "$visa" run k.visaasm "${runargs[@]}" --out 1=/dev/full
  full run-trace "$visa" run k.visaasm "${runargs[@]}" --trace
  full run-trace-out "$visa" run k.visaasm "${runargs[@]}" --trace-out /dev/full
  full run-profile "$visa" run k.visaasm "${runargs[@]}" --profile
  full run-profile-svg "$visa" run k.visaasm "${runargs[@]}" --profile-svg /dev/full
  full run-list-inputs "$visa" run k.visaasm --list-inputs
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
