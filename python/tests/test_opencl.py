"""visa.opencl: a pyopencl context on an emulated device runs a kernel IGC compiles (issue 25).

Each case runs in a fresh process: the ICD loader reads its environment once per process.  The
expected values are numpy's.  Skipped without pyopencl (Debian python3-pyopencl), without the
built ICD (tools/icd needs ocl-icd-opencl-dev) or without IGC (intel-opencl-icd).
"""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import PACKAGE_ROOT

import visa
import visa.opencl


def _python_with_pyopencl():
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        return None  # an ASan libvisa cannot load libocloc, and pyopencl's C++ trips the preloaded runtime
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.path.exists(py) and subprocess.run([py, "-c", "import pyopencl, numpy"],
                                                       capture_output=True).returncode == 0:
            return py
    return None


SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np, pyopencl as cl, visa.opencl
ctx = visa.opencl.context(sys.argv[2])
q = cl.CommandQueue(ctx)
a = np.arange(40, dtype=np.float32)
b = np.linspace(-3, 5, 40).astype(np.float32)
mf = cl.mem_flags
da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
dc = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
try:
    prg = cl.Program(ctx, "kernel void axpb(global const float *a, global const float *b, float k, "
                          "global float *c) { int i = get_global_id(0); c[i] = k * a[i] + b[i]; }").build()
except cl.RuntimeError as e:
    if "libocloc" in str(e) or "intel-opencl-icd" in str(e):
        print("SKIP: " + str(e).splitlines()[0]); sys.exit(0)
    raise
prg.axpb(q, a.shape, None, da, db, np.float32(2.5), dc)
c = np.empty_like(a)
cl.enqueue_copy(q, c, dc)
want = np.float32(2.5) * a + b
assert np.array_equal(c, want), (c, want)
print("OK", ctx.devices[0].name)
"""


@pytest.mark.parametrize("device", ["TGL", "DG2", "PVC"])
def test_pyopencl_context(device):
    py = _python_with_pyopencl()
    if py is None:
        pytest.skip("no python3 with pyopencl (Debian: python3-pyopencl)")
    if visa.opencl.icd_path() is None:
        pytest.skip("visa's OpenCL ICD is not built (Debian: ocl-icd-opencl-dev)")
    env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
    r = subprocess.run([py, "-c", SCRIPT, PACKAGE_ROOT, device], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    if r.stdout.startswith("SKIP"):
        pytest.skip(r.stdout.strip())
    assert r.stdout.startswith("OK ") and device in r.stdout, r.stdout


def test_platform_missing_is_clear():
    """A process whose loader has read its environment before use_platform() gets a clear error."""
    py = _python_with_pyopencl()
    if py is None or shutil.which("clinfo") is None and not os.path.exists("/etc/OpenCL/vendors"):
        pytest.skip("no pyopencl or no other OpenCL platform")
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import os, pyopencl as cl, visa.opencl\n"
              "os.environ['OCL_ICD_VENDORS'] = '/nonexistent/none.icd'\n"
              "try:\n    cl.get_platforms()\nexcept cl.Error:\n    pass\n"
              "os.environ.pop('OCL_ICD_VENDORS')\n"
              "try:\n    visa.opencl.context('DG2')\nexcept RuntimeError as e:\n    print('ERR', e)\n")
    r = subprocess.run([py, "-c", script, PACKAGE_ROOT], capture_output=True, text=True, timeout=300)
    if visa.opencl.icd_path() is None:
        pytest.skip("visa's OpenCL ICD is not built")
    assert "ERR visa's OpenCL platform is not loaded" in r.stdout, r.stdout + r.stderr


def test_readme_pyopencl_example():
    """The README's visa.opencl example runs as written (in a fresh process) and doubles a."""
    import re
    from conftest import REPO
    py = _python_with_pyopencl()
    if py is None or visa.opencl.icd_path() is None:
        pytest.skip("no pyopencl or no ICD")
    readme = open(os.path.join(REPO, "README.md")).read()
    [code] = [c for c in re.findall(r"```python\n(.*?)```", readme, re.S) if "visa.opencl" in c]
    check = "\nassert (a == 2 * np.arange(16, dtype=np.float32)).all(), a\nprint('OK')\n"
    env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}
    env["PYTHONPATH"] = PACKAGE_ROOT
    r = subprocess.run([py, "-c", code + check], capture_output=True, text=True, env=env, timeout=600)
    if "libocloc" in r.stderr:
        pytest.skip("no IGC (intel-opencl-icd)")
    assert r.returncode == 0 and r.stdout.strip().endswith("OK"), r.stdout + r.stderr
