"""visa.Program: OpenCL C compiled by IGC (libocloc) and run with its launch ABI; expected values
from numpy.  Skipped without libocloc (Debian intel-opencl-icd) or a library without programs."""
import numpy as np
import pytest

import visa

SAXPY = """
kernel void saxpy(float a, global const float *x, global float *y, local float *tmp) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = a * x[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  y[i] += tmp[get_local_id(0)];
  if (i == 3) printf("y[3]=%.1f of %d\\n", y[i], (int)get_global_size(0));
}
"""


def build(device, src=SAXPY, **kw):
    try:
        return visa.Program(source=src, device=device, **kw)
    except NotImplementedError as e:
        pytest.skip(str(e))
    except visa.VisaError as e:
        if any(d.code == "E-OCLOC-LOAD" for d in e.diagnostics):
            pytest.skip("libocloc cannot be loaded")
        raise


@pytest.mark.parametrize("device", ["tgllp", "dg2-g10", "pvc"])
def test_saxpy(device):
    p = build(device)
    assert p.kernels == ["saxpy"]
    assert [a["kind"] for a in p.args("saxpy")] == ["value", "buffer", "buffer", "local"]
    x = np.arange(256, dtype=np.float32)
    y = np.ones(256, dtype=np.float32)
    r = p.run("saxpy", [2.5, x, y, visa.local(64 * 4)], global_size=256, local_size=64)
    assert np.array_equal(y, np.float32(2.5) * x + 1)
    assert r.output == "y[3]=8.5 of 256\n"


def test_binary_round_trip():
    p = build("dg2-g10")
    q = visa.Program(binary=p.binary())
    assert q.device == "DG2" and q.kernels == ["saxpy"]


def test_build_error_has_log():
    with pytest.raises(visa.VisaError) as e:
        build("dg2-g10", src="kernel void k(global int *o) { o[0] = undeclared; }")
    assert "undeclared" in e.value.build_log


def test_wrong_arguments():
    p = build("dg2-g10")
    with pytest.raises(ValueError):
        p.run("saxpy", [2.5], global_size=16)
    with pytest.raises(TypeError):
        p.run("saxpy", [2.5, np.zeros(16, np.float32), np.zeros(16, np.float32), 64], global_size=16)
