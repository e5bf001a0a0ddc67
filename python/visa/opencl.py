"""visa's OpenCL platform from Python: pyopencl contexts on emulated Intel GPUs (docs/opencl.md).

    import numpy as np, pyopencl as cl, visa.opencl
    ctx = visa.opencl.context("DG2")          # before any other OpenCL call of the process
    q = cl.CommandQueue(ctx)
    a = np.arange(16, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)
    cl.Program(ctx, "kernel void twice(global float *a) { a[get_global_id(0)] *= 2; }").build() \\
        .twice(q, a.shape, None, buf)
    cl.enqueue_copy(q, a, buf)                 # a == 2 * arange(16)

The kernels are compiled by IGC (Debian intel-opencl-icd) and run by visa's emulator.  The ICD
loader (ocl-icd) reads its environment once, when the process first asks for OpenCL platforms, so
use_platform() -- which context() calls -- must come first; under `visa cl` the platform is
already the only one and nothing is changed.
"""
import os

from ._capi import lib

__all__ = ["context", "devices", "icd_path", "use_platform"]

PLATFORM_WORD = "visa"  # the ICD's platform name contains it (tools/icd)


def icd_path():
    """The visa.icd that names libvisa-opencl.so: $VISA_ICD, else the one beside the libvisa this
    package loaded (a build tree's icd/visa.icd, an install's PREFIX/etc/OpenCL/vendors/visa.icd).
    None when there is none."""
    env = os.environ.get("VISA_ICD")
    if env:
        return env if os.path.isfile(env) else None
    libdir = os.path.dirname(os.path.abspath(lib().path))
    for rel in ("icd/visa.icd", "../etc/OpenCL/vendors/visa.icd", "../../etc/OpenCL/vendors/visa.icd"):
        path = os.path.normpath(os.path.join(libdir, rel))
        if os.path.isfile(path):
            return path
    return None


def use_platform(checks=None, threads=None):
    """Make visa's ICD the OpenCL platform of this process (OCL_ICD_VENDORS), with the run checks
    ("memcheck,racecheck" or "all") and host threads for every launch.  Raises RuntimeError when
    the ICD is not found."""
    if checks is not None:
        os.environ["VISA_CL_CHECK"] = checks
    if threads is not None:
        os.environ["VISA_CL_THREADS"] = str(int(threads))
    vendors = os.environ.get("OCL_ICD_VENDORS", "")
    if vendors.endswith("visa.icd") or os.path.isfile(os.path.join(vendors, "visa.icd")):
        return  # `visa cl`, or a caller that chose visa's ICD (its file or a folder holding it) already
    path = icd_path()
    if path is None:
        raise RuntimeError("visa's OpenCL ICD (visa.icd) was not found beside " + lib().path +
                           ": build visa with Debian's ocl-icd-opencl-dev, or set VISA_ICD")
    os.environ["OCL_ICD_VENDORS"] = path


def devices():
    """pyopencl's devices of visa's platform (use_platform() first)."""
    import pyopencl as cl
    try:
        platforms = [p for p in cl.get_platforms() if PLATFORM_WORD in p.name]
    except cl.Error:  # the loader found no platform at all
        platforms = []
    if not platforms:
        raise RuntimeError("visa's OpenCL platform is not loaded: the ICD loader had read its "
                           "environment before use_platform(); call visa.opencl.context() before any "
                           "other OpenCL call of the process, or run it under `visa cl`")
    return platforms[0].get_devices()


def context(device="DG2", checks=None, threads=None):
    """A pyopencl Context on the emulated device whose name contains `device` ("TGL", "DG2",
    "PVC"), visa's platform made the process's first (use_platform)."""
    use_platform(checks, threads)
    import pyopencl as cl
    found = [d for d in devices() if device.lower() in d.name.lower()]
    if not found:
        raise ValueError("no emulated device named like %r: %s" % (device, ", ".join(d.name for d in devices())))
    return cl.Context([found[0]])
