#!/usr/bin/env python3
"""An ordinary pyopencl program: c = k * a + b on the first OpenCL device it finds.

    build/visa cl -- python3 examples/axpb.py            # on visa's emulated Intel GPUs
    build/visa cl --device pvc --check=all -- python3 examples/axpb.py
"""
import numpy as np
import pyopencl as cl

ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
q = cl.CommandQueue(ctx)
a = np.arange(32, dtype=np.float32)
b = np.full(32, 0.5, dtype=np.float32)
mf = cl.mem_flags
da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
prg = cl.Program(ctx, """
kernel void axpb(global const float *a, global const float *b, float k, global float *c) {
    size_t i = get_global_id(0);
    c[i] = k * a[i] + b[i];
}""").build()
prg.axpb(q, a.shape, None, da, db, np.float32(2), dc)
c = np.empty_like(a)
cl.enqueue_copy(q, c, dc)
print(ctx.devices[0].name)
print(c[:8], "... ok" if np.array_equal(c, 2 * a + b) else "... WRONG")
