#!/usr/bin/env python3
"""pyopencl's own test suite on visa's OpenCL platform (issue 25): Debian's python-pyopencl-doc
ships pyopencl's tests (/usr/share/doc/python-pyopencl-doc/examples/test_*.py); each file runs
under `visa cl --device DEV -- python3 -m pytest FILE` with PYOPENCL_TEST=visa, per device.

usage: pyopencl_suite.py [-j N] [--files F,F...] VISA CACHE DEVICE...

CACHE is a folder for pyopencl's binary cache (XDG_CACHE_HOME), so that a rerun takes its kernels
from the zebins the ICD handed out (clCreateProgramWithBinary) and does not write to the user's home.

Every test must pass or be skipped by pyopencl itself (a feature the device reports it lacks).  A
failure is accepted only for a reason below, matched on the failure's own text:
  FP64   pyopencl builds a kernel with double on a device that reports no cl_khr_fp64 (IGC says
         "use of type 'double' requires cl_khr_fp64 support"): pyopencl's choice of types
         (a Python float scalar is a float64) fails the same way on the hardware's driver;
  KNOWN  a named test with its reason and the text its failure must show.
A KNOWN test that passes fails the run (its entry is stale).  Exit 0 when every failure has its
reason, 1 otherwise, 77 without pyopencl, its tests or visa's ICD.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from clhost import PYTHON, skip_reason

EXAMPLES = "/usr/share/doc/python-pyopencl-doc/examples"
FILES = ["wrapper", "array", "algorithm", "clmath", "enqueue_copy", "clrandom", "arrays_in_structs"]
FP64 = "use of type 'double' requires cl_khr_fp64 support"
# pytest's assertion of a float64 dtype against a float32 one, either way round
FP32 = re.compile(r"assert dtype\('float(64|32)'\) (==|is) dtype\('float(32|64)'\)")
FP32_TESTS = ("test_div_type_matches_numpy[", "test_divide_scalar[")

# (file, test name prefix, devices or None for all, reason, a regex the failure's text must match)
KNOWN = [
    ("clmath", "test_atan[", None,
     "atan(float) is 2 ulp from numpy's (2.38e-7) where pyopencl allows 2e-7 (OpenCL C allows 5 ulp): "
     "IGC's atan is a polynomial with the math unit's inv, which visa computes exact-rounded and the "
     "GPU approximates (docs/emulator.md), so the hardware's last bits may differ either way",
     r"AssertionError: \(2\.384185[0-9]*e-07, 'atan', dtype\('float32'\)\)"),
    ("algorithm", "test_segmented_scan[", ("pvc",),
     "IGC 1.0.12504 places __local variables at offsets modulo 64 KiB (InlineLocalsResolution's "
     "offset & 0xFFFF); pyopencl sizes this scan for PVC's 128 KiB of local memory, so IGC's own "
     "vISA puts two arrays inside the first (racecheck reports the overlap); pocl is right",
     r"assert False"),
]


def known_entry(fname, test, device):
    """The KNOWN entry naming this test on this device, or None."""
    for entry in KNOWN:
        kfile, prefix, devices = entry[:3]
        if kfile == fname and test.startswith(prefix) and (devices is None or device in devices):
            return entry
    return None


def known_reason(fname, test, device, text, fp64):
    """The reason a failure is accepted, or None; fp64: the device reports cl_khr_fp64."""
    if not fp64 and FP64 in text:
        return "FP64"
    if not fp64 and test.startswith(FP32_TESTS) and FP32.search(text):
        return "FP32"
    entry = known_entry(fname, test, device)
    if entry and re.search(entry[4], text):
        return "KNOWN: " + entry[3]
    return None


def run_file(visa, cache, device, fname):
    """[(test, outcome, text)] of one test file on one device; outcome pass|fail|skip."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "junit.xml")
        env = dict(os.environ, PYOPENCL_TEST="visa", XDG_CACHE_HOME=cache)
        cmd = [visa, "cl", "--device", device, "--", PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "--junitxml=" + xml, os.path.join(EXAMPLES, "test_%s.py" % fname)]
        try:
            r = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=3600)
        except subprocess.TimeoutExpired:
            return [("(the file)", "fail", "timed out after 3600 s")]
        if not os.path.exists(xml):
            return [("(the file)", "fail", "pytest wrote no report, exit %d: %s" %
                     (r.returncode, (r.stdout + r.stderr).strip()[-600:]))]
        results = []
        cases = list(ET.parse(xml).getroot().iter("testcase"))
        if not cases:
            return [("(the file)", "fail", "pytest ran no test, exit %d: %s" %
                     (r.returncode, (r.stdout + r.stderr).strip()[-600:]))]
        for case in cases:
            name = case.get("name", "?")
            bad = case.find("failure")
            if bad is None:
                bad = case.find("error")
            skip = case.find("skipped")
            if bad is not None:
                results.append((name, "fail", (bad.get("message") or "") + "\n" + (bad.text or "")))
            elif skip is not None:
                results.append((name, "skip", skip.get("message") or ""))
            else:
                results.append((name, "pass", ""))
        return results


def short(test):
    """test_foo[<context factory for <pyopencl.Device ...>>-int32] -> test_foo[int32]"""
    return re.sub(r"<context factory for <pyopencl\.Device .*?>>-?", "", test)


def device_has_fp64(visa, device):
    """Whether the device reports cl_khr_fp64 (pyopencl's has_double_support), None if unknown."""
    probe = ("import pyopencl as cl; from pyopencl.characterize import has_double_support as d; "
             "print([d(x) for p in cl.get_platforms() for x in p.get_devices()])")
    r = subprocess.run([visa, "cl", "--device", device, "--", PYTHON, "-c", probe], capture_output=True, text=True)
    return {"[True]": True, "[False]": False}.get(r.stdout.strip())


def judge(fname, device, fp64, results):
    """Prints what did not simply pass; returns (counts, unexplained)."""
    counts = {"passed": 0, "skipped": 0, "failed (FP64)": 0, "failed (FP32)": 0, "failed (KNOWN)": 0}
    unexplained = 0
    for test, outcome, text in results:
        if outcome == "pass":
            counts["passed"] += 1
            if known_entry(fname, test, device):
                unexplained += 1
                print("  %s test_%s %s: passes, but is listed in KNOWN: remove it" % (device, fname, short(test)))
        elif outcome == "skip":
            counts["skipped"] += 1
            print("  %s test_%s %s: skipped by pyopencl: %s" % (device, fname, short(test), text.strip()[:160]))
        else:
            reason = known_reason(fname, test, device, text, fp64)
            if reason is None:
                unexplained += 1
                last = [l for l in text.splitlines() if l.startswith("E ")][-3:] or text.strip().splitlines()[-3:]
                print("  %s test_%s %s: FAILED: %s" % (device, fname, short(test), " | ".join(l.strip() for l in last)[:600]))
            else:
                counts["failed (%s)" % reason.split(":")[0]] += 1
                print("  %s test_%s %s: failed, %s" % (device, fname, short(test), reason[:200]))
    return counts, unexplained


def main():
    args = sys.argv[1:]
    jobs, files = 2, FILES
    while args and args[0] in ("-j", "--files"):
        if args[0] == "-j":
            jobs = max(1, int(args[1]))
        else:
            files = args[1].split(",")
        args = args[2:]
    if len(args) < 3:
        print(__doc__)
        return 2
    visa, cache, devices = os.path.abspath(args[0]), os.path.abspath(args[1]), args[2:]
    if not os.path.isfile(os.path.join(EXAMPLES, "test_wrapper.py")):
        print("SKIPPED: %s is absent (Debian: python-pyopencl-doc)" % EXAMPLES)
        return 77
    why = skip_reason(visa, "pyopencl, pytest", "python3-pyopencl python3-pytest")
    if why:
        print("SKIPPED: " + why)
        return 77
    os.makedirs(cache, exist_ok=True)
    fp64 = {d: device_has_fp64(visa, d) for d in devices}
    for d in devices:
        if fp64[d] is None:
            print("FAILED: cannot ask %s whether it has fp64" % d)
            return 1
        print("%s: %s cl_khr_fp64" % (d, "reports" if fp64[d] else "does not report"))
    # the slow files first, so that the pool's two workers end together
    order = sorted(files, key=lambda f: f not in ("array", "algorithm"))
    unexplained = 0
    total = {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {(d, f): pool.submit(run_file, visa, cache, d, f) for d in devices for f in order}
        for device in devices:
            per = {}
            for fname in files:
                counts, bad = judge(fname, device, fp64[device], futures[(device, fname)].result())
                unexplained += bad
                for k, v in counts.items():
                    per[k] = per.get(k, 0) + v
                print("%s test_%s: %s" % (device, fname, ", ".join("%d %s" % (v, k) for k, v in counts.items() if v)))
            total[device] = per
    for device, per in total.items():
        print("%s: %s" % (device, ", ".join("%d %s" % (v, k) for k, v in per.items() if v or k == "passed")))
    print("%d unexplained" % unexplained)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
