#!/usr/bin/env python3
"""Results do not depend on the host thread count (issue 25): the same OpenCL programs run under
`visa cl --threads N --device DEV` for N = 1, 2 and 3, and every output buffer must have the same
bytes.  The kernels are the kinds whose result could depend on the order groups run in: global
atomics handing out slots (the slot a work-item gets is the order), a float sum by atomic
compare-exchange (float addition does not associate), a local-memory reduction with barriers, and
pyopencl's scan of int64; each is also checked against numpy where its value is defined (the set
of slots, the scan, the integer sums), so a run that is identical but wrong fails too.

usage: threads_identical.py VISA DEVICE...      (the child: threads_identical.py --child)
Exit 0 when every device gives identical bytes for every thread count, 1 otherwise, 77 without
pyopencl or visa's ICD.
"""
import hashlib
import subprocess
import sys

from clhost import PYTHON, skip_reason

THREADS = (1, 2, 3)

KERNELS = r"""
__kernel void slots(__global int *counter, __global int *order) {
    int slot = atomic_inc(counter);
    order[slot] = (int)get_global_id(0);
}
__kernel void fsum(__global const float *x, __global float *sum) {
    float v = x[get_global_id(0)];
    __global volatile uint *p = (__global volatile uint *)sum;
    uint old = *p, seen;
    do {
        seen = old;
        old = atomic_cmpxchg(p, seen, as_uint(as_float(seen) + v));
    } while (old != seen);
}
__kernel void lsum(__global const int *x, __global int *out, __local int *tmp) {
    int l = get_local_id(0), n = get_local_size(0);
    tmp[l] = x[get_global_id(0)];
    for (int s = n / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) tmp[l] += tmp[l + s];
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}
"""


def child():
    """Runs the kernels on the one device `visa cl` offers; prints one digest of every output."""
    import numpy as np
    import pyopencl as cl
    import pyopencl.array as cla
    from pyopencl.scan import InclusiveScanKernel

    plat = [p for p in cl.get_platforms() if "visa" in p.name][0]
    ctx = cl.Context(plat.get_devices())
    q = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, KERNELS).build()
    rng = np.random.default_rng(7)
    digest = hashlib.sha256()
    bad = []

    n = 4096
    counter = cla.zeros(q, 1, np.int32)
    order = cla.zeros(q, n, np.int32)
    prg.slots(q, (n,), (64,), counter.data, order.data)
    o = order.get()
    if sorted(o.tolist()) != list(range(n)):
        bad.append("slots: not a permutation of the work-items")
    digest.update(o.tobytes())

    x = rng.random(n, dtype=np.float32)
    s = cla.zeros(q, 1, np.float32)
    prg.fsum(q, (n,), (32,), cla.to_device(q, x).data, s.data)
    got = s.get()[0]
    # float32 additions in any order: within (n - 1) * 2^-24 * sum |x| of the exact sum
    if abs(got - x.sum(dtype=np.float64)) > (n - 1) * 2.0**-24 * x.sum(dtype=np.float64):
        bad.append("fsum: %r, numpy %r" % (got, x.sum()))
    digest.update(s.get().tobytes())

    xi = rng.integers(-1000, 1000, n, dtype=np.int32)
    out = cla.zeros(q, n // 128, np.int32)
    prg.lsum(q, (n,), (128,), cla.to_device(q, xi).data, out.data, cl.LocalMemory(128 * 4))
    if (out.get() != xi.reshape(-1, 128).sum(axis=1)).any():
        bad.append("lsum: group sums differ from numpy's")
    digest.update(out.get().tobytes())

    scan = InclusiveScanKernel(ctx, np.int64, "a+b", "0")
    h = rng.integers(-(1 << 40), 1 << 40, 100003, dtype=np.int64)
    d = cla.to_device(q, h)
    scan(d)
    if (d.get() != np.cumsum(h)).any():
        bad.append("scan: differs from numpy's cumsum")
    digest.update(d.get().tobytes())

    for b in bad:
        print("WRONG " + b)
    print("DIGEST " + digest.hexdigest())
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--child"]:
        return child()
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    visa, devices = sys.argv[1], sys.argv[2:]
    why = skip_reason(visa)
    if why:
        print("SKIPPED: " + why)
        return 77
    failed = 0
    for device in devices:
        digests = {}
        for threads in THREADS:
            r = subprocess.run([visa, "cl", "--device", device, "--threads", str(threads), "--", PYTHON,
                                __file__, "--child"], capture_output=True, text=True, timeout=1800)
            lines = r.stdout.splitlines()
            for line in lines:
                if line.startswith("WRONG"):
                    print("%s --threads %d: %s" % (device, threads, line))
            found = [l.split()[1] for l in lines if l.startswith("DIGEST")]
            if r.returncode != 0 or not found:
                print("%s --threads %d: exit %d %s" % (device, threads, r.returncode, r.stderr.strip()[-400:]))
                continue
            digests[threads] = found[0]
        ran = len(digests) == len(THREADS)  # a run that failed left no digest
        same = ran and len(set(digests.values())) == 1
        print("%s: %s (%s)" % (device, "identical" if same else "DIFFER" if ran else "FAILED",
                               ", ".join("%d: %s" % (t, d[:12]) for t, d in digests.items())))
        failed += 0 if same else 1
    print("%d passed, %d failed" % (len(devices) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
