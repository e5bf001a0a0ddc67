#!/bin/sh
# symbols.sh NM LIBVISA.a LIBVISA.so -- both libraries define exactly the public API globally:
# libvisa.a's one object has its hidden (internal) symbols made local (CMakeLists.txt: ld -r,
# objcopy --localize-hidden) and libvisa.so exports only default-visibility symbols, so each
# global symbol is a VISA_API function of visa.h and every one of those is there.  Neither
# library references LLVM: the compiled tier loads it at run time (src/emu/llvm_dl.c).
nm=$1 static=$2 shared=$3
passed=0 failed=0

# the names a library defines globally; $1: nm options.  AddressSanitizer adds an ODR marker
# __odr_asan.NAME beside each global NAME: NAME itself is checked, the marker is not ours.
defined() { "$nm" "$@" | awk 'NF == 3 && $2 ~ /^[A-TV-Z]$/ && $3 !~ /^__odr_asan\./ { print $3 }' |
            sort -u; }
# the dynamic linker's own markers (_init, _edata, ...) are not ours
ours() { grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$'; }

hdr=$(dirname "$0")/../../include/visa/visa.h
want=$(sed -n 's/^VISA_API [^(]*[ *]\(visa_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort -u)

for lib in "$static" "$shared"; do
  opt=-g; [ "$lib" = "$shared" ] && opt=-D
  have=$(defined $opt --defined-only "$lib" | ours)
  bad=$(printf '%s\n' "$have" | grep -Ev '^visa_[^_]' | grep .)
  if [ -n "$bad" ]; then
    echo "$lib defines global symbols that are not public API (visa_*, each marked VISA_API" \
         "in visa.h; an internal function is hidden, which -fvisibility=hidden makes it):"
    echo "$bad" | sed 's/^/  /'
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  # the public API itself is there: every VISA_API function of visa.h
  missing=$(printf '%s\n' "$want" | while read -r f; do
    printf '%s\n' "$have" | grep -qx "$f" || echo "$f"; done)
  if [ -z "$want" ] || [ -n "$missing" ]; then
    echo "$lib does not define these visa.h functions globally:"
    echo "$missing" | sed 's/^/  /'
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
  # no reference to LLVM: every LLVM function the compiled tier calls is a row of
  # src/emu/llvm_dl.def, called through the table llvm_dl.c loads
  llvm=$("$nm" $opt --undefined-only "$lib" | awk '$NF ~ /^LLVM/ { print $NF }' | sort -u)
  if [ -n "$llvm" ]; then
    echo "$lib references LLVM (add these to src/emu/llvm_dl.def):"
    echo "$llvm" | sed 's/^/  /'
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
