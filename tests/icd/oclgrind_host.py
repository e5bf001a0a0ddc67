#!/usr/bin/env python3
"""Oclgrind's kernel tests through the OpenCL API (issue 25): a pyopencl host for one `.sim` file.

usage: oclgrind_host.py [--platform SUBSTR] [--device SUBSTR] [--compare] TEST.sim
       oclgrind_host.py [--platform SUBSTR] [--device SUBSTR] --suite KERNELS_DIR

The .sim (Oclgrind's simulator input: program, kernel, NDRange, work-group size, arguments) is read
with tests/program/oclgrind_suite.py's parser; the .cl is built with clCreateProgramWithSource on the
chosen device (with the .sim's --build-options and -cl-kernel-arg-info), the arguments are made as
the .sim says (buffers filled, ranges, explicit values, noinit, null, __local sizes, scalars and
structs as bytes), the kernel runs with the .sim's sizes, and the output is what Oclgrind prints:
the kernel's printf lines, then every `dump` argument in the .ref format ("Argument 'x': N bytes",
"  x[i] = v").  A driver such as `visa cl --check=all -- oclgrind_host.py ... TEST.sim` compares
that output and its own findings with the .ref; --compare makes the comparison of the values here
(the .ref's EXACT and MATCH lines; its ERROR lines are findings of a checker and are listed, not
compared) and exits 0 when they match, 1 when not, 2 when the device refuses the test (a build or
enqueue error: the reason is printed).  --suite runs every test of KERNELS_DIR/TESTS that way, each
in a process of its own, and prints the counts.

The device: --platform / --device substrings of the names (default: $PYOPENCL_CTX when set, else
the platform whose name contains "visa"); exit 77 when there is none.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np  # noqa: F401 (pyopencl needs it; imported first for a clear error)
import pyopencl as cl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "program"))
from oclgrind_suite import dump_lines, elem_for, fill_bytes, parse_sim  # noqa: E402

SKIP, MATCHED, DIFFERS, REFUSED = 77, 0, 1, 2


def choose_device(platform_part, device_part):
    """The first device whose platform and name contain the substrings (None, None: PYOPENCL_CTX
    when set, else "visa")."""
    if platform_part is None and device_part is None and os.environ.get("PYOPENCL_CTX"):
        return cl.create_some_context(interactive=False).devices[0]
    try:
        platforms = cl.get_platforms()
    except cl.Error:
        platforms = []
    for p in platforms:
        if (platform_part or "visa") not in p.name:
            continue
        for d in p.get_devices():
            if device_part is None or device_part in d.name:
                return d
    return None


def arg_infos(kernel):
    """Per argument: its kind (buffer, local, value), OpenCL type name and name, from clGetKernelArgInfo."""
    kinds = {cl.kernel_arg_address_qualifier.GLOBAL: "buffer", cl.kernel_arg_address_qualifier.CONSTANT: "buffer",
             cl.kernel_arg_address_qualifier.LOCAL: "local", cl.kernel_arg_address_qualifier.PRIVATE: "value"}
    infos = []
    for i in range(kernel.num_args):
        address = kernel.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER)
        infos.append({"kind": kinds[address], "type": kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME),
                      "name": kernel.get_arg_info(i, cl.kernel_arg_info.NAME)})
    return infos


def make_args(ctx, kernel, specs, infos):
    """Sets every argument as its .sim spec says; returns the dumps to make, (name, spec, code,
    element size, buffer), and every buffer (a kernel holds no reference to its arguments)."""
    dumps, buffers = [], []
    for i, (spec, info) in enumerate(zip(specs, infos)):
        size = int(spec.get("size", 0) or 0)
        if "null" in spec or (info["kind"] == "buffer" and size == 0):
            kernel.set_arg(i, None)  # Oclgrind takes buffers of 0 bytes, OpenCL has none: NULL
        elif info["kind"] == "local":
            kernel.set_arg(i, cl.LocalMemory(size))
        elif info["kind"] == "buffer":
            code, esize = elem_for(spec, info)
            flags = cl.mem_flags.READ_ONLY if "ro" in spec else cl.mem_flags.WRITE_ONLY if "wo" in spec \
                else cl.mem_flags.READ_WRITE
            if "noinit" in spec:  # never written by the host: undefined to a checker
                buf = cl.Buffer(ctx, flags, size)
            else:
                buf = cl.Buffer(ctx, flags | cl.mem_flags.COPY_HOST_PTR, hostbuf=fill_bytes(spec, code, esize, size))
            kernel.set_arg(i, buf)
            buffers.append(buf)
            if "dump" in spec:
                dumps.append((info["name"], spec, code, esize, buf))
        else:
            code, esize = elem_for(spec, info)
            kernel.set_arg(i, fill_bytes(spec, code, esize, size))
    return dumps, buffers


class CapturedStdout:
    """What is written to file descriptor 1 (the kernel's printf, by the ICD's C stdio) meanwhile."""

    def __enter__(self):
        sys.stdout.flush()
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(1)
        os.dup2(self.file.fileno(), 1)
        return self

    def __exit__(self, *exc):
        ctypes.CDLL(None).fflush(None)
        os.dup2(self.saved, 1)
        os.close(self.saved)
        self.file.seek(0)
        self.lines = self.file.read().decode(errors="replace").splitlines()
        self.file.close()
        return False


def run_sim(device, sim):
    """Runs one .sim on the device; (status, printf lines, dump lines or the reason it was refused)."""
    prog_file, kernel_name, gsize, lsize, options, specs = parse_sim(sim)
    source = open(os.path.join(os.path.dirname(sim), prog_file)).read()
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    try:
        program = cl.Program(ctx, source).build(options=(options + " -cl-kernel-arg-info").strip())
        kernel = getattr(program, kernel_name)
        infos = arg_infos(kernel)
        if len(infos) != len(specs):
            return DIFFERS, [], [".sim gives %d arguments, the kernel takes %d" % (len(specs), len(infos))]
        dumps, buffers = make_args(ctx, kernel, specs, infos)
        with CapturedStdout() as printed:
            cl.enqueue_nd_range_kernel(queue, kernel, tuple(gsize), tuple(lsize))
            queue.finish()
        del buffers  # only now may they go
    except cl.Error as e:
        return REFUSED, [], [str(e).splitlines()[0] if str(e) else type(e).__name__]
    lines = []
    for name, spec, code, esize, buf in dumps:
        data = bytearray(buf.size)
        cl.enqueue_copy(queue, data, buf)
        lines += dump_lines(name, spec, code, esize, bytes(data))
    return MATCHED, printed.lines, lines


def compare(ref_path, printed, out_lines):
    """The .ref's EXACT and MATCH lines against the printf lines and the dumps, in order (as
    Oclgrind's run_test.py does); its ERROR lines, findings of a checker, are listed on stderr.
    (matched, reason)"""
    lines = [l for l in printed + out_lines if l.strip()]
    ref = open(ref_path).read().splitlines() if os.path.exists(ref_path) else []
    entries = [(l.split()[0], l[6:]) for l in ref if l.strip()]
    for kind, text in entries:
        if kind == "ERROR":
            print("expected finding: " + text, file=sys.stderr)
    values = [(kind, text) for kind, text in entries if kind != "ERROR"]
    for (kind, text), found in zip(values, lines + [None] * len(values)):
        if found is None or (kind == "EXACT" and found != text) or (kind == "MATCH" and text not in found):
            return False, "expected %r, found %r" % (text, found if found is not None else "end of output")
    return True, ""


def run_one(device, sim, check):
    status, printed, lines = run_sim(device, sim)
    if status == REFUSED:
        print("REFUSED: " + " ".join(lines))
        return REFUSED
    for line in printed + lines:  # the printf lines first, as Oclgrind prints them
        print(line)
    sys.stdout.flush()
    if not check or status != MATCHED:
        return status
    ok, reason = compare(sim[:-4] + ".ref", printed, lines)
    if not ok:
        print("DIFFERS: " + reason)
    return MATCHED if ok else DIFFERS


def run_suite(argv_prefix, kdir):
    """Every test of kdir/TESTS with --compare in a process of its own (a kernel that crashes the
    device takes only its test); the counts."""
    tests = [t.strip() for t in open(os.path.join(kdir, "TESTS")) if t.strip()]
    words = {MATCHED: "matched", DIFFERS: "differs", REFUSED: "refused by the device"}
    counts = dict.fromkeys(list(words.values()) + ["crashed"], 0)
    for test in tests:
        sim = os.path.join(kdir, test + ".sim")
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--compare"] + argv_prefix + [sim],
                               capture_output=True, text=True, timeout=300)
            code, lines = r.returncode, [l for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        except subprocess.TimeoutExpired:
            code, lines = -1, ["timed out"]
        if code == SKIP:
            print(lines[-1] if lines else "SKIPPED")
            return SKIP
        word = words.get(code, "crashed")
        counts[word] += 1
        if code != MATCHED:
            detail = [l for l in lines if l.startswith(("DIFFERS", "REFUSED"))] or lines[-1:] or [""]
            print("  %s: %s%s: %s" % (test, word, "" if word != "crashed" else " (%d)" % code, detail[0][:200]))
    print(", ".join("%d %s" % (n, w) for w, n in counts.items()))
    return 0


def main():
    args, platform_part, device_part, check, suite = sys.argv[1:], None, None, False, None
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--platform" and args:
            platform_part = args.pop(0)
        elif opt == "--device" and args:
            device_part = args.pop(0)
        elif opt == "--compare":
            check = True
        elif opt == "--suite" and args:
            suite = args.pop(0)
        else:
            print(__doc__)
            return 64
    if (suite is None) == (len(args) != 1):
        print(__doc__)
        return 64
    device = choose_device(platform_part, device_part)
    if device is None:
        print("SKIPPED: no OpenCL device on a platform containing %r" % (platform_part or "visa"))
        return SKIP
    if suite is not None:
        prefix = ["--platform", device.platform.name, "--device", device.name]
        return run_suite(prefix, suite)
    return run_one(device, args[0], check)


if __name__ == "__main__":
    sys.exit(main())
