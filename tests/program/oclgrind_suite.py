#!/usr/bin/env python3
"""Oclgrind's kernel test suite through IGC and visa (issue 24).

usage: oclgrind_suite.py [-j N] VISA SHARED WORKDIR DEVICE...

Each test of SHARED/corpus/oclgrind/kernels/TESTS is built by Debian's IGC (the ocloc program,
zebin with vISA sections) for each DEVICE, run by `visa run FILE.zebin` with the launch its .sim
describes (NDRange, work-group size, arguments: sizes, fill / range / explicit values, dumps, null
pointers, __local sizes) and --check=all, and compared with its .ref: every EXACT and MATCH line of
the dumped arguments, and for each ERROR line a finding of the check Oclgrind's plugin stands for
(MemCheck: memcheck, RaceDetector: racecheck, Uninitialized: initcheck, barrier divergence:
synccheck); a test without ERROR lines must have no finding.

Outcomes per device: passed; not applicable, with the reason (KNOWN below: a fact about IGC or
about the test); failed.  A failure that TODO names (what visa does not do yet) is counted and
printed as failed but does not fail the run; one that TODO does not name does.  A test in KNOWN or
TODO that passes fails the run, so the lists stay true.  Tests whose dumped values are the outcome of
undefined behaviour (UB_VALUES: a data race or a divergent work-group function, where Oclgrind's
.ref records its own one-work-item-at-a-time schedule) are compared on their findings only.
Exit 0 when nothing fails that TODO does not name, 1 otherwise, 77 when ocloc or the corpus is
absent.  -j N runs N tests at a time (default: the number of CPUs).
"""
import concurrent.futures
import json
import os
import re
import struct
import subprocess
import sys

# Tests that cannot pass, with the reason; a test listed here that passes is reported (so the list
# shrinks as visa grows).  Keys: "dir/name" or "dir/name@device".
ASYNC = "IGC lowers async_work_group_copy to each work-item's own loop of plain loads and stores and wait_group_events to fences and barriers every work-item reaches: no work-group copy or event is left in the vISA"

KNOWN = {
    "interactive/struct_member": "an interactive-debugger test (Oclgrind's -i prompt): nothing to compare",
    # Oclgrind checks array indices against the declared array (LLVM's GEP bounds); IGC lowers the
    # array into the thread's registers or private memory, where an index past it is no invalid
    # access: the vISA IGC wrote has no trace of the array's bounds.
    "memcheck/static_array": "IGC keeps the array in registers / private memory: no bounds left in the vISA",
    "memcheck/static_array_padded_struct": "IGC keeps the array in registers / private memory: no bounds left in the vISA",
    "memcheck/casted_static_array": "IGC keeps the array in registers / private memory: no bounds left in the vISA",
    # wait_group_events(1, events + i) becomes a fence and a barrier that every work-item reaches,
    # whatever the event (lsc_fence + barrier after the copy's join point): no divergence is left.
    "wait_event/wait_event_divergent": "IGC lowers wait_group_events to one fence + barrier all work-items reach, ignoring the event: the divergence is not in the vISA",
    # IGC stores a value all lanes write to one address once: the first enabled lane's (fbl of the
    # mask, then one NoMask scatter_scaled to %slm), so the write-write race and the .ref's last-writer value are gone.
    "data-race/local_write_write_race@tgllp": "IGC writes *scratch once, from the first enabled lane (fbl + NoMask scatter_scaled): the race is not in the vISA",
    # Async copies and events: what IGC's code keeps of them (dg2 async_copy_global_race: the copy is
    # a per-work-item lsc_load/lsc_store loop, the wait is lsc_fence.ugm + barrier + lsc_fence.slm + barrier).
    "async_copy/async_copy_global_race": ASYNC,
    "async_copy/async_copy_local_race": ASYNC,
    "async_copy/async_copy_single_wi": ASYNC,
    "async_copy/async_copy_loop_divergent": ASYNC,
    "async_copy/async_copy_divergent": ASYNC,
    "async_copy/async_copy_unwaited": "IGC drops the copy nobody waits for: only the final store is left in the vISA",
    "wait_event/wait_event_invalid": "the event is gone from the vISA: only the fence + barrier pairs of the wait are left",
    "uninitialized/partially_uninitialized_fract": "IGC folds the undefined lane into a constant NaN (mov ... 0x7fffffff:f): nothing undefined is left",
    # memcheck does not judge reads of write-only buffers: IGC's own code reads them (a store to part
    # of a vector is a load and a store of the whole: bugs/write_vector_write_only_fp, misc/lvalue_loads).
    # The int load at in + 2 is gather_scaled.4 on XeLP, the form IGC also uses for a packed struct's
    # int field (LLVM align 1), so the hardware takes any byte address there and the vISA shows no
    # defect; on dg2 and pvc IGC uses the block form (d32t), whose address must be dword-aligned.
    "alignment/unaligned@tgllp": "IGC's gather_scaled.4 takes byte addresses (it loads packed struct int fields with it), so the misaligned int pointer is no defect in the vISA",
    "memcheck/read_write_only_memory": "IGC's code itself reads write-only buffers (partial vector stores), so such a read is no finding in the vISA",
}

# Tests whose dumped values come from undefined behaviour: Oclgrind runs one work-item at a time up
# to each barrier, so its .ref records that schedule; IGC runs the work-items of a group as SIMD
# lanes of one hardware thread, each instruction for all lanes at once.  Their findings are compared.
UB_VALUES = {
    "data-race/local_read_write_race": "a read-write race on scratch[]: the lanes store scratch[l] = l in one SIMD store before lane 0 sums them (6), Oclgrind runs work-item 0 to the end first (0)",
    "barrier/barrier_different_instructions": "work-items reach different barrier instructions: IGC's SIMD code runs the else branch (barrier, data[i] = i + data[0]) before the then branch stores 42",
    "async_copy/async_copy_divergent": "async_work_group_copy with a size that differs between work-items: IGC lowers it to each work-item copying with its own size, Oclgrind copies once with the first size",
    "wait_event/wait_event_divergent": "wait_group_events on different events per work-item: which copies have landed when each reads is the schedule's",
}

# Failures that are visa's, not IGC's or the test's: what visa does not do yet (see the issue list).
TODO = {
}

CHECK_OF = [  # Oclgrind's ERROR text -> the visa check that must report it
    (re.compile(r"data race", re.I), "C-RACECHECK"),
    (re.compile(r"uninitiali[sz]ed", re.I), "C-INITCHECK"),
    (re.compile(r"divergence|barrier", re.I), "C-SYNCCHECK"),
    (re.compile(r"invalid|out of bounds|null", re.I), "C-MEMCHECK"),
]

CL_TYPES = {  # OpenCL element type -> (struct code, bytes)
    "char": ("b", 1), "uchar": ("B", 1), "short": ("h", 2), "ushort": ("H", 2), "int": ("i", 4),
    "uint": ("I", 4), "long": ("q", 8), "ulong": ("Q", 8), "float": ("f", 4), "double": ("d", 8),
    "bool": ("B", 1), "size_t": ("Q", 8), "half": ("e", 2),
}


def elem_of(type_name):
    """int4* -> ('i', 4): the element of a value or of what a pointer points to; None for structs."""
    base = type_name.split(";")[0].rstrip("*").strip()
    base = re.sub(r"^(const|volatile|restrict)\s+", "", base)
    m = re.match(r"([a-z_]+?)(\d*)$", base)
    return CL_TYPES.get(m.group(1)) if m else None


def parse_sim(path):
    """The .sim launch: program, kernel, global and local sizes, build options, arguments."""
    lines = open(path).read().splitlines()
    opts = ""
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        m = re.match(r"# ARGS:\s*--build-options\s+(.*)", lines[0])
        if m:
            opts = m.group(1).strip().strip('"')
        lines = lines[1:]
    prog, kernel = lines[0].strip(), lines[1].strip()
    gsize = [int(x) for x in lines[2].split()]
    lsize = [int(x) for x in lines[3].split()]
    args, i = [], 4
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line.startswith("<"):
            continue
        spec = {"values": []}
        for tok in line.strip("<>").split():
            k, _, v = tok.partition("=")
            spec[k] = v if v else True
        while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith("<"):
            spec["values"] += lines[i].split()
            i += 1
        args.append(spec)
    return prog, kernel, gsize, lsize, opts, args


def elem_for(spec, info):
    for t in CL_TYPES:
        if t in spec:
            return CL_TYPES[t]
    return elem_of(info["type"]) or ("B", 1)


def fill_bytes(spec, code, size, nbytes):
    count = nbytes // size
    if spec["values"]:
        vals = [int(v, 16) if "hex" in spec else (float(v) if code in "fde" else int(v, 0)) for v in spec["values"]]
    elif "range" in spec:
        a, s, b = (float(x) if code in "fde" else int(x) for x in spec["range"].split(":"))
        vals, v = [], a
        while len(vals) < count and v <= b:
            vals.append(v)
            v += s
    else:
        f = spec.get("fill", "0")
        vals = [float(f) if code in "fde" else int(f, 0)] * count
    out = b""
    for v in vals[:count]:
        if code not in "fde":
            v = int(v) & ((1 << (8 * size)) - 1)
            v = struct.unpack("<" + code, v.to_bytes(size, "little"))[0]
        out += struct.pack("<" + code, v)
    return out.ljust(nbytes, b"\0")


def dump_lines(name, spec, code, size, data):
    yield "Argument '%s': %d bytes" % (name, len(data))
    for k in range(len(data) // size):
        v = struct.unpack_from("<" + code, data, k * size)[0]
        if "hex" in spec:
            text = "0x%0*x" % (2 * size, v & ((1 << (8 * size)) - 1))
        elif code in "fde":
            text = "%g" % v
        else:
            text = str(v)
        yield "  %s[%d] = %s" % (name, k, text)


def build(kdir, test, prog, opts, device, work):
    out = os.path.join(work, device, test)
    os.makedirs(out, exist_ok=True)
    zebin = os.path.join(out, "k.zebin")
    if os.path.exists(zebin):
        return zebin, None
    cmd = ["ocloc", "compile", "-file", os.path.join(kdir, os.path.dirname(test), prog), "-device", device,
           "--format", "zebin", "-out_dir", out, "-output", "k", "-output_no_suffix",
           "-internal_options", "-cl-intel-emit-zebin-visa-sections"]
    if opts:
        cmd += ["-options", opts]
    r = subprocess.run(cmd, cwd=out, capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(os.path.join(out, "k")):
        return None, (r.stdout + r.stderr).strip().splitlines()[-1:] or ["ocloc failed"]
    os.rename(os.path.join(out, "k"), zebin)
    return zebin, None


def run_test(visa, kdir, test, device, work, compare_values=True):
    """(outcome, detail): outcome 'pass', 'fail' or 'na'."""
    sim = os.path.join(kdir, test + ".sim")
    ref = open(os.path.join(kdir, test + ".ref")).read().splitlines() if os.path.exists(os.path.join(kdir, test + ".ref")) else []
    prog, kernel, gsize, lsize, opts, specs = parse_sim(sim)
    zebin, err = build(kdir, test, prog, opts, device, work)
    if not zebin:
        return "na", "IGC does not compile it: " + " ".join(err)
    lst = subprocess.run([visa, "run", zebin, "--kernel", kernel, "--list-inputs", "--json"], capture_output=True, text=True)
    try:
        infos = json.loads(lst.stdout)["inputs"]
    except (ValueError, KeyError):
        return "fail", "--list-inputs: " + (lst.stdout + lst.stderr)[-300:]
    if len(infos) != len(specs):
        return "fail", ".sim gives %d arguments, the kernel takes %d" % (len(specs), len(infos))
    cmd = [visa, "run", zebin, "--kernel", kernel, "--check=all", "--json",
           "--global-size", ",".join(map(str, gsize)), "--local-size", ",".join(map(str, lsize))]
    dumps = []
    for k, (spec, info) in enumerate(zip(specs, infos)):
        size = int(spec.get("size", 0) or 0)
        if "null" in spec:
            cmd += ["--arg", "null"]
        elif info["kind"] == "local":
            cmd += ["--arg", str(size)]
        elif info["kind"] == "buffer":
            code, esize = elem_for(spec, info)
            path = os.path.join(work, device, test, "arg%d.bin" % k)
            access = ":ro" if "ro" in spec else ":wo" if "wo" in spec else ""  # the cl_mem's flags
            if "noinit" in spec:  # a buffer the host never wrote: undefined to initcheck
                cmd += ["--arg", "buf:%d:undef%s" % (size, access)]
            else:
                open(path, "wb").write(fill_bytes(spec, code, esize, size))
                cmd += ["--arg", "buf:%d:file=%s%s" % (size, path, access)]
            if "dump" in spec:
                outp = os.path.join(work, device, test, "out%d.bin" % k)
                cmd += ["--out", "%s=%s" % (info["name"], outp)]
                dumps.append((info["name"], spec, code, esize, outp))
        else:
            code, esize = elem_for(spec, info)
            cmd += ["--arg", "raw:" + fill_bytes(spec, code, esize, size).hex()]
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        return "fail", "no JSON report: " + (r.stdout + r.stderr)[-300:]
    diags = doc.get("diagnostics", [])
    findings = [d["rule"] if "rule" in d else d.get("code", "") for d in diags if d.get("severity") == "error"]
    findings = [f for f in findings if f and f.startswith("C-")]
    other = [d for d in diags if d.get("severity") == "error" and not str(d.get("rule", d.get("code", ""))).startswith("C-")]
    if other:
        return "fail", "%s: %s" % (other[0].get("rule", other[0].get("code")), other[0].get("message", ""))[:300]
    out_lines = [l for l in doc.get("output", "").splitlines() if l.strip()]  # printf's, before the dumps
    for name, spec, code, esize, outp in dumps:
        data = open(outp, "rb").read() if os.path.exists(outp) else b""
        out_lines += list(dump_lines(name, spec, code, esize, data))
    want_checks = []
    oi = 0
    for line in ref:
        if not line.strip():
            continue
        kind, text = line.split()[0], line[6:]
        if kind == "ERROR":
            want_checks.append((check_of(text), text))
            continue
        if not compare_values:
            continue
        found = out_lines[oi] if oi < len(out_lines) else None
        if kind == "MATCH" and found is not None and text in found:
            oi += 1
            continue
        if kind != "EXACT" or found != text:
            return "fail", "expected %r, found %r" % (text, out_lines[oi] if oi < len(out_lines) else "end of output")
        oi += 1
    return findings_verdict(want_checks, findings)


def check_of(text):
    """The visa check (C-MEMCHECK, ...) that must report what an Oclgrind ERROR line says; None."""
    return next((c for rx, c in CHECK_OF if rx.search(text)), None)


def findings_verdict(want_checks, findings):
    """('pass' | 'fail', detail): every expected (check, Oclgrind's text) has a finding of its
    check among findings (C-* ids), and a clean test has none."""
    for check, text in want_checks:
        if not any(check and f.startswith(check) for f in findings):
            return "fail", "Oclgrind reports %r; visa's %s found nothing (%s)" % (
                text, check, ", ".join(sorted(set(findings))) or "no findings")
    if not want_checks and findings:
        return "fail", "a clean test, but visa reports " + ", ".join(sorted(set(findings)))
    return "pass", ""


def outcome_of(visa, kdir, test, device, work):
    """One test on one device: (outcome, detail, counted as an unexpected failure)."""
    return judge(test, device, lambda compare_values: run_test(visa, kdir, test, device, work, compare_values))


def judge(test, device, run):
    """The lists' verdict on run(compare_values) -> (outcome, detail) for one test on one device:
    (outcome, detail, counted as an unexpected failure)."""
    known = KNOWN.get(test + "@" + device) or KNOWN.get(test)
    todo = TODO.get(test + "@" + device) or TODO.get(test)
    ub = UB_VALUES.get(test + "@" + device) or UB_VALUES.get(test)
    outcome, detail = run(not ub)
    if outcome == "pass" and (known or todo):
        return "pass", "passes, but %s says: %s" % ("KNOWN" if known else "TODO", known or todo), True
    if outcome == "fail" and known:
        return "na", known + " (" + detail + ")", False
    if outcome == "fail" and todo:
        return "fail", "(TODO: %s) %s" % (todo, detail), False
    if outcome == "pass" and ub:
        return "pass", "values not compared: " + ub, False
    return outcome, detail, outcome == "fail"


def main():
    args = sys.argv[1:]
    jobs = os.cpu_count() or 1
    if len(args) > 1 and args[0] == "-j":
        jobs, args = max(1, int(args[1])), args[2:]
    if len(args) < 4:
        print(__doc__)
        return 2
    visa, shared, work = args[:3]
    devices = args[3:]
    kdir = os.path.join(shared, "corpus", "oclgrind", "kernels")
    if not os.path.isdir(kdir):
        print("SKIPPED: %s is absent" % kdir)
        return 77
    if subprocess.run(["sh", "-c", "command -v ocloc"], capture_output=True).returncode != 0:
        print("SKIPPED: no ocloc (Debian: intel-opencl-icd)")
        return 77
    tests = [t.strip() for t in open(os.path.join(kdir, "TESTS")) if t.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        unexpected = run_all(pool, devices, tests, lambda test, device: outcome_of(visa, kdir, test, device, work))
    print("%d unexpected failures" % unexpected)
    return 1 if unexpected else 0


def run_all(pool, devices, tests, outcome):
    """outcome(test, device) -> (outcome, detail, unexpected) of every test on every device, in the
    pool; prints what did not simply pass and the counts per device; the unexpected failures."""
    unexpected = 0
    for device in devices:
        futures = [pool.submit(outcome, test, device) for test in tests]
        counts = {"pass": 0, "fail": 0, "na": 0}
        for test, fut in zip(tests, futures):
            result, detail, bad = fut.result()
            counts[result] += 1
            unexpected += bad
            if result != "pass" or detail.startswith("passes, but"):
                word = {"pass": "passed", "fail": "FAILED", "na": "n/a"}[result]
                print("  %s %s: %s: %s" % (device, test, word, detail))
        print("%s: %d passed, %d failed, %d not applicable" % (device, counts["pass"], counts["fail"], counts["na"]))
    return unexpected


if __name__ == "__main__":
    sys.exit(main())
