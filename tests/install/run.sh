#!/bin/sh
# run.sh BUILD_DIR CMAKE [EXTRA_CFLAGS] -- install the build into a temporary prefix, then build
# consumer.c outside the tree five ways and run each: with pkg-config and with find_package(visa),
# each against the shared and the static library, and fully static (cc -static) with pkg-config.
# EXTRA_CFLAGS: the sanitizer flags of an ASan build (its library needs their runtime).  Exits 77
# (skipped) without pkg-config.
build=$1 cmake=$2 extra=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v pkg-config >/dev/null || { echo "SKIPPED: pkg-config not found"; exit 77; }
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "0 passed, 1 failed"; exit 1; }
p=$tmp/prefix
lib=$(dirname "$(find "$p" -name visa.pc | head -n 1)")/..
for f in bin/visa include/visa/visa.h include/visa/version.h share/man/man1/visa.1 \
         share/doc/visa/LICENSE share/doc/visa/CHANGELOG.md; do
  [ -f "$p/$f" ] && ok || fail "$f not installed"
done
for f in libvisa.a libvisa.so libvisa.so.0 cmake/visa/visaConfig.cmake pkgconfig/visa.pc; do
  [ -e "$lib/$f" ] && ok || fail "lib/$f not installed"
done
# the OpenCL ICD, when this build has it: the library, and the loader's .icd file naming it
if [ -f "$build/icd/visa.icd" ]; then
  [ -f "$lib/libvisa-opencl.so" ] && ok || fail "lib/libvisa-opencl.so not installed"
  [ "$(cat "$p/etc/OpenCL/vendors/visa.icd" 2>/dev/null)" = "$(cd "$lib" && pwd)/libvisa-opencl.so" ] && ok ||
    fail "etc/OpenCL/vendors/visa.icd does not name the installed libvisa-opencl.so"
fi
# the installed tool finds its library (RPATH $ORIGIN/../lib)
"$p/bin/visa" --version >/dev/null 2>&1 && ok || fail "installed bin/visa does not run"

export PKG_CONFIG_PATH="$lib/pkgconfig"
flags="-std=c17 -Wall -Wextra -Werror $extra"
# shared: -lvisa picks libvisa.so; the rpath lets it run from the prefix
if $cc $flags "$here/consumer.c" $(pkg-config --cflags --libs visa) -Wl,-rpath,"$lib" \
     -o "$tmp/pc_shared" && "$tmp/pc_shared"; then ok; else fail "pkg-config, shared"; fi
if command -v ldd >/dev/null && ! ldd "$tmp/pc_shared" | grep -q 'libvisa\.so\.0'; then
  fail "pkg-config, shared: not linked against libvisa.so.0"; fi
# static: --static adds Libs.private (-lm -lpthread); -l:libvisa.a because -lvisa would take
# the libvisa.so next to it
if $cc $flags "$here/consumer.c" $(pkg-config --static --cflags --libs visa |
     sed 's/-lvisa\( \|$\)/-l:libvisa.a /') -o "$tmp/pc_static" && "$tmp/pc_static"; then
  ok; else fail "pkg-config --static"; fi
if command -v ldd >/dev/null && ldd "$tmp/pc_static" | grep -q libvisa; then
  fail "pkg-config --static: linked against the shared library"; fi
# fully static (-static: libc too): libvisa.a needs no libLLVM to link, the compiled tier loads
# it at run time, which a static program cannot: it runs interpreted, and a run that must be
# compiled (VISA_EMU_TIER=jit-all) fails with a message, not a crash.  Not under the
# sanitizers (their run-time libraries are shared).
case $extra in
*sanitize*) echo "fully static: skipped under the sanitizers" ;;
*)
  if $cc $flags -static "$here/consumer.c" $(pkg-config --static --cflags --libs visa |
       sed 's/-lvisa\( \|$\)/-l:libvisa.a /') -o "$tmp/pc_full_static" 2>"$tmp/static.log" &&
     "$tmp/pc_full_static"; then ok; else cat "$tmp/static.log"; fail "cc -static"; fi
  # (glibc warns that a static program's dlopen needs its shared libraries: this one never calls it)
  if [ -x "$tmp/pc_full_static" ]; then
    if command -v ldd >/dev/null && ldd "$tmp/pc_full_static" 2>&1 | grep -q '=>'; then
      fail "cc -static: the program loads shared libraries"; fi
    VISA_EMU_TIER=jit-all "$tmp/pc_full_static" >"$tmp/jit.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q 'statically linked' "$tmp/jit.log"; }; then ok; else
      cat "$tmp/jit.log"; fail "cc -static, VISA_EMU_TIER=jit-all: exit $rc"; fi
  fi ;;
esac

for kind in shared static; do
  st=OFF; [ $kind = static ] && st=ON
  if "$cmake" -S "$here" -B "$tmp/cm_$kind" -DCMAKE_PREFIX_PATH="$p" -DVISA_STATIC=$st \
       -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$extra" >"$tmp/cm.log" 2>&1 &&
     "$cmake" --build "$tmp/cm_$kind" >>"$tmp/cm.log" 2>&1 && "$tmp/cm_$kind/consumer"; then
    ok; else cat "$tmp/cm.log"; fail "find_package(visa), $kind"; fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
