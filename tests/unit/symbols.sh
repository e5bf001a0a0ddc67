#!/bin/sh
# symbols.sh NM LIBVISA.a LIBVISA.so -- the library's global symbols are all in its namespace:
# every symbol libvisa.a defines starts with visa_ (internal ones with visa__, through
# src/core/namespace.h), and libvisa.so exports only the public API (visa_ but not visa__).
# A new internal function without the prefix fails here: add it to src/core/namespace.h
# (or make it static).
nm=$1 static=$2 shared=$3
passed=0 failed=0

# the names a library defines globally; $1: nm options.  AddressSanitizer adds an ODR marker
# __odr_asan.NAME beside each global NAME: NAME itself is checked, the marker is not ours.
defined() { "$nm" "$@" | awk 'NF == 3 && $2 ~ /^[A-TV-Z]$/ && $3 !~ /^__odr_asan\./ { print $3 }' |
            sort -u; }

bad=$(defined -g --defined-only "$static" | grep -v '^visa_')
if [ -n "$bad" ]; then
  echo "$static defines global symbols outside the visa_ namespace; add them to" \
       "src/core/namespace.h (or make them static):"
  echo "$bad" | sed 's/^/  /'
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi

# the dynamic linker's own markers (_init, _edata, ...) are not ours
bad=$(defined -D --defined-only "$shared" | grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' |
      grep -Ev '^visa_[^_]')
if [ -n "$bad" ]; then
  echo "$shared exports symbols that are not public API (visa_*, each marked VISA_API in visa.h):"
  echo "$bad" | sed 's/^/  /'
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi

# the public API itself is exported: every VISA_API function of visa.h
hdr=$(dirname "$0")/../../include/visa/visa.h
want=$(sed -n 's/^VISA_API [^(]*[ *]\(visa_[a-z0-9_]*\)(.*/\1/p' "$hdr" | sort -u)
have=$(defined -D --defined-only "$shared")
missing=$(printf '%s\n' "$want" | while read -r f; do
  printf '%s\n' "$have" | grep -qx "$f" || echo "$f"; done)
if [ -z "$want" ] || [ -n "$missing" ]; then
  echo "$shared does not export these visa.h functions:"
  echo "$missing" | sed 's/^/  /'
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
