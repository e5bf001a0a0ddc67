#!/bin/sh
# `visa cl`'s exit status after a program that exits 0 (tests/icd/cl_bounds.c): the ICD writes the
# launches that failed or had findings to VISA_CL_REPORT, so an out-of-bounds kernel under
# --check=memcheck makes the run exit 1 with a C-MEMCHECK-OOB line naming the kernel; the same
# kernel within bounds exits 0 with no finding.  Under --check=initcheck a kernel reading a buffer
# a kernel queued before it wrote has no finding, even when that writer had not run yet when the
# reader was enqueued; reading a buffer nothing wrote is a C-INITCHECK finding.
# usage: cl_report.sh VISA CL_BOUNDS
visa=$1 host=$2
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
fail=0

"$visa" cl --check=memcheck -- "$host" oob >"$out" 2>&1
rc=$?
if [ $rc -eq 77 ] || grep -q '^SKIPPED' "$out"; then cat "$out"; exit 77; fi
if [ $rc -ne 1 ]; then echo "FAIL: out of bounds: exit $rc, expected 1"; fail=1; fi
if ! grep -q 'kernel bounds_write: .*C-MEMCHECK-OOB' "$out"; then
    echo "FAIL: out of bounds: no C-MEMCHECK-OOB line naming bounds_write"; fail=1
fi
[ $fail -eq 0 ] || cat "$out"

"$visa" cl --check=memcheck -- "$host" clean >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL: within bounds: exit $rc, expected 0"; cat "$out"; fail=1; fi
if grep -q 'C-MEMCHECK' "$out"; then echo "FAIL: within bounds: a finding"; cat "$out"; fail=1; fi

"$visa" cl --check=initcheck -- "$host" chain >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then echo "FAIL: written by a kernel queued before: exit $rc, expected 0"; cat "$out"; fail=1; fi
if grep -q 'C-INITCHECK' "$out"; then echo "FAIL: written by a kernel queued before: a finding"; cat "$out"; fail=1; fi

"$visa" cl --check=initcheck -- "$host" unwritten >"$out" 2>&1
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'kernel copy: .*C-INITCHECK' "$out"; then
    echo "FAIL: never written: exit $rc (expected 1) or no C-INITCHECK line naming copy"; cat "$out"; fail=1
fi

[ $fail -eq 0 ] && echo "cl_report: ok"
exit $fail
