#!/usr/bin/env python3
"""Oclgrind's kernel tests through visa's OpenCL platform (issue 25): every test of
../shared/corpus/oclgrind run as an OpenCL program, `visa cl --check=all --device DEV --
python3 oclgrind_host.py --compare TEST.sim` (the host builds the .cl through clCreateProgramWithSource,
so IGC compiles it inside the ICD), per device.

usage: oclgrind_cl.py [-j N] VISA SHARED DEVICE...

A test passes when the host's dumped values match the .ref (its EXACT and MATCH lines) and, for each
of the .ref's ERROR lines, the matching check reported a finding (tests/program/oclgrind_suite.py's
check_of), and a clean test reports none.  The lists of tests IGC leaves nothing to find in (KNOWN),
whose values are a schedule's (UB_VALUES) and what visa lacks (TODO) are oclgrind_suite.py's: the
same kernels, built by the same IGC, so the same reasons hold; a listed test that passes fails the
run, as there.  Exit 0 when nothing unexpected failed, 1 otherwise, 77 without the corpus, the ICD
or pyopencl.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "program"))
from oclgrind_suite import check_of, findings_verdict, judge, run_all  # noqa: E402
from clhost import PYTHON, skip_reason  # noqa: E402

FINDING = re.compile(r"\[(C-[A-Z0-9-]+)\]")


def run_test(visa, kdir, test, device, compare_values):
    """('pass' | 'fail', detail) for one test on one device."""
    sim = os.path.join(kdir, test + ".sim")
    cmd = [visa, "cl", "--check=all", "--device", device, "--", PYTHON, os.path.join(HERE, "oclgrind_host.py"),
           "--compare", sim]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "fail", "timed out"
    out = r.stdout.splitlines()
    findings = FINDING.findall(r.stderr)
    refused = [l for l in out if l.startswith("REFUSED")]
    if refused:
        return "fail", refused[0][:300]
    if r.returncode not in (0, 1):
        return "fail", "exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()[-300:])
    differs = [l for l in out if l.startswith("DIFFERS")]
    if differs and compare_values:
        return "fail", differs[0][:300]
    want = []
    ref = os.path.join(kdir, test + ".ref")
    for line in open(ref) if os.path.exists(ref) else []:
        if line.startswith("ERROR"):
            text = line[6:].strip()
            want.append((check_of(text), text))
    verdict = findings_verdict(want, findings)
    if verdict[0] == "pass" and not want and r.returncode != 0 and not differs:
        return "fail", "exit %d: %s" % (r.returncode, r.stderr.strip()[-300:])
    return verdict


def main():
    args = sys.argv[1:]
    jobs = 2
    if len(args) > 1 and args[0] == "-j":
        jobs, args = max(1, int(args[1])), args[2:]
    if len(args) < 3:
        print(__doc__)
        return 2
    visa, shared, devices = args[0], args[1], args[2:]
    kdir = os.path.join(shared, "corpus", "oclgrind", "kernels")
    if not os.path.isdir(kdir):
        print("SKIPPED: %s is absent" % kdir)
        return 77
    why = skip_reason(visa)
    if why:
        print("SKIPPED: " + why)
        return 77
    tests = [t.strip() for t in open(os.path.join(kdir, "TESTS")) if t.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        unexpected = run_all(pool, devices, tests,
                             lambda test, device: judge(test, device, lambda cv: run_test(visa, kdir, test, device, cv)))
    print("%d unexpected failures" % unexpected)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
