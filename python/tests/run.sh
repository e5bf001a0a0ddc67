#!/bin/sh
# run.sh BUILD_DIR CMAKE [SANITIZER_FLAGS] -- the Python package's pytest tests against the
# build's libvisa.so.0 (CTest `python`).  Uses the first of $VISA_PYTHON, python3 on PATH and
# /usr/bin/python3 that has numpy and pytest; exits 77 (skipped) when none has.  SANITIZER_FLAGS:
# an ASan build's, whose library needs the ASan runtime loaded first (python is not built with it).
build=$(cd "$1" && pwd) cmake=$2 flags=$3
here=$(cd "$(dirname "$0")" && pwd)
py=
for p in "$VISA_PYTHON" python3 /usr/bin/python3; do
  [ -n "$p" ] && command -v "$p" >/dev/null 2>&1 || continue
  if "$p" -c 'import numpy, pytest' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
  echo "SKIPPED: no python3 with numpy and pytest (Debian: apt-get install -y python3-numpy python3-pytest)"
  exit 77
fi
export VISA_LIBRARY="$build/libvisa.so.0" VISA_BUILD_DIR="$build" VISA_CMAKE="$cmake"
export PYTHONDONTWRITEBYTECODE=1
case $flags in
  *sanitize=address*)
    asan=$(${CC:-cc} -print-file-name=libasan.so)
    # python's own allocations look leaked at exit; the C tests check libvisa's (last one wins)
    export LD_PRELOAD="$asan" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    # the install test runs pip and compilers' children under the preload: leave it out
    export VISA_SKIP_INSTALL_TEST=1 ;;
esac
"$py" -m pytest -q -p no:cacheprovider "$here"
rc=$?
# pytest exits 5 when it collected no tests: that is a broken test tree, not a pass
if [ $rc -eq 5 ]; then echo "no tests collected"; echo "0 passed, 1 failed"; exit 1; fi
exit $rc
