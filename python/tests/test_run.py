"""run: the examples on numpy inputs against numpy."""
import numpy as np
import pytest

import visa


def test_saxpy_iota(example):
    # the README's `visa run examples/saxpy.visaasm --arg buf:64:iota:f --arg buf:64:fill:f:1
    # --arg 2.5 --arg 10`: y = 2.5 * x + y on the first 10 of 16 lanes
    m = visa.load(example("saxpy.visaasm"))
    x = np.arange(16, dtype=np.float32)
    y = np.ones(16, dtype=np.float32)
    r = m.run(args=[x, y, 2.5, 10])
    want = np.ones(16, dtype=np.float32)
    want[:10] = 2.5 * np.arange(10) + 1  # exact in float32
    assert np.array_equal(y, want)
    assert r.buffers[1] is y and r[0] is x and len(r) == 2
    assert np.array_equal(x, np.arange(16, dtype=np.float32))  # x only read
    assert r.threads == 1 and r.instructions > 0
    assert r.stats == {"instructions": r.instructions, "threads": 1}


def test_saxpy_random_and_numpy_scalars(example):
    m = visa.load(example("saxpy.visaasm"))
    rng = np.random.default_rng(1)
    x = rng.standard_normal(16).astype(np.float32)
    y0 = rng.standard_normal(16).astype(np.float32)
    y = y0.copy()
    m.run(args=[x, y, np.float32(-0.75), np.int64(16)])
    np.testing.assert_allclose(y, np.float32(-0.75) * x + y0, rtol=1e-6, atol=1e-6)


def test_non_contiguous_array_is_written_back(example):
    m = visa.load(example("saxpy.visaasm"))
    x = np.arange(32, dtype=np.float32)[::2]  # 0, 2, 4, ...: a strided view
    big = np.zeros(32, dtype=np.float32)
    y = big[::2]
    assert not y.flags.c_contiguous
    m.run(args=[x, y, 1.0, 16])
    assert np.array_equal(y, np.arange(0, 32, 2, dtype=np.float32))
    assert np.array_equal(big[1::2], np.zeros(16, dtype=np.float32))


def gemm(m, a, b, groups):
    rows, k = a.shape
    n = b.shape[1]
    c = np.zeros((rows, n), dtype=np.float32)
    r = m.run(args=[a, b, c, rows, n, k], groups=groups, platform="Xe2")
    return c, r


def test_gemm_exact(example):
    # the README's run: A (8 x 16, hf, all 1) * B (16 x 32, hf, all 0.5), two groups
    m = visa.load(example("gemm.visaasm"))
    a = np.ones((8, 16), dtype=np.float16)
    b = np.full((16, 32), 0.5, dtype=np.float16)
    c, r = gemm(m, a, b, (2, 1))
    assert np.array_equal(c, np.full((8, 32), 8.0, dtype=np.float32))
    assert r.threads == 2


def test_gemm_against_numpy(example):
    m = visa.load(example("gemm.visaasm"))
    rng = np.random.default_rng(7)
    # small integers and halves: every product and partial sum is exact in float32, so any
    # accumulation order gives numpy's result exactly
    a = (rng.integers(-8, 9, (16, 32)) / 2).astype(np.float16)
    b = (rng.integers(-8, 9, (32, 48)) / 2).astype(np.float16)
    c, r = gemm(m, a, b, (3, 2))  # N/16 x M/8 groups
    assert np.array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    assert r.threads == 6
    # general values: float32 accumulation, compared within its rounding
    a = rng.standard_normal((8, 32)).astype(np.float16)
    b = rng.standard_normal((32, 16)).astype(np.float16)
    c, _ = gemm(m, a, b, (1, 1))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4,
                               atol=1e-4)


def test_threads_give_identical_results(example):
    m = visa.load(example("gemm.visaasm"))
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 32)).astype(np.float16)
    c1 = np.zeros((16, 32), np.float32)
    c4 = np.zeros((16, 32), np.float32)
    m.run(args=[a, b, c1, 16, 32, 16], groups=(2, 2), threads=1)
    m.run(args=[a, b, c4, 16, 32, 16], groups=(2, 2), threads=4)
    assert c1.tobytes() == c4.tobytes()


def test_runtime_error_is_data(example):
    m = visa.load(example("saxpy.visaasm"))
    x = np.zeros(4, dtype=np.float32)  # 16 bytes: the kernel loads 40
    y = np.zeros(16, dtype=np.float32)
    with pytest.raises(visa.VisaError) as ei:
        m.run(args=[x, y, 1.0, 10])
    e = ei.value
    assert e.status_name and e.errors
    d = e.errors[0]
    with open(example("saxpy.visaasm")) as f:
        lines = f.read().splitlines()
    # lane 4 of the load of x (V38), the first access past x's 16 bytes
    line = [i for i, s in enumerate(lines, 1) if "lsc_load.ugm (M1, 16)  V38" in s][0]
    assert (d.code, d.file, d.line) == ("E-RUN-OOB-GLOBAL", m.name, line)
    assert "out of bounds" in d.message and "lane 4" in d.message
    assert d.source_line == lines[line - 1]


def test_step_limit(example):
    m = visa.load(example("saxpy.visaasm"))
    x = np.zeros(16, dtype=np.float32)
    with pytest.raises(visa.VisaError) as ei:
        m.run(args=[x, x.copy(), 1.0, 10], max_steps=3)
    assert ei.value.errors[0].code == "E-RUN-STEP-LIMIT"


def test_bad_arguments(example):
    m = visa.load(example("saxpy.visaasm"))
    with pytest.raises(TypeError, match="argument 2"):
        m.run(args=[np.zeros(16, np.float32), np.zeros(16, np.float32), "2.5", 10])
    with pytest.raises(ValueError, match="groups"):
        m.run(args=[], groups=(1, 1, 1, 1))


def test_cr0_and_raw(example):
    # raw(bits) gives the input's bits: 0x40200000 is 2.5f
    m = visa.load(example("saxpy.visaasm"))
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, dtype=np.float32)
    m.run(args=[x, y, visa.raw(0x40200000), 16], cr0=0x4C0)
    assert np.array_equal(y, 2.5 * np.arange(16, dtype=np.float32))


def test_local_size_needs_the_launch_api(example):
    from visa import _capi
    m = visa.load(example("saxpy.visaasm"))
    if visa._capi.lib().has_launch:
        pytest.skip("this libvisa has the OpenCL launch API")
    with pytest.raises(NotImplementedError, match="local_size"):
        m.run(args=[], local_size=(16, 1, 1))
    assert _capi.RUN_OPTS_LAUNCH_SIZE == _capi.RunOptsLaunch.local_size.offset + 12


def test_local_size_reaches_the_library(example, monkeypatch):
    # the plumbing, whatever this libvisa is: with the launch API present, run() passes the
    # struct through local_size, with struct_size covering it
    import ctypes
    from visa import _capi
    lib = _capi.lib()
    seen = []
    real = lib.visa_module_run

    def spy(mod, opts, *rest):
        o = ctypes.cast(opts, ctypes.POINTER(_capi.RunOptsLaunch)).contents
        seen.append((o.struct_size, list(o.local_size), list(o.groups)))
        return real(mod, opts, *rest)

    monkeypatch.setattr(lib, "has_launch", True)
    monkeypatch.setattr(lib, "visa_module_run", spy)
    m = visa.load(example("saxpy.visaasm"))
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, dtype=np.float32)
    m.run(args=[x, y, 1.0, 16], local_size=(16, 2), groups=(1, 1, 1))
    assert seen == [(_capi.RUN_OPTS_LAUNCH_SIZE, [16, 2, 1], [1, 1, 1])]
    # struct_size covers exactly the released fields, then local_size's 12 bytes
    assert _capi.RUN_OPTS_LAUNCH_SIZE == ctypes.sizeof(_capi.RunOpts) + 12


# An OpenCL-style kernel (Target="3d", SIMD16, Xe2): local id x in the per-thread payload, the
# output pointer and K in the inline window; out[gid] = gid with gid = group id x * K + local id x.
OCL = """.version 4.1
.kernel "ocl"
.decl LX v_type=G type=uw num_elts=16 align=hword
.decl OUT v_type=G type=uq num_elts=1 align=qword
.decl K v_type=G type=d num_elts=1 align=dword
.decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>
.decl BASE v_type=G type=d num_elts=1 align=dword
.decl GID v_type=G type=d num_elts=16 align=GRF
.decl ADDR v_type=G type=uq num_elts=16 align=GRF
.input LX offset=64 size=32
.input OUT offset=128 size=8
.input K offset=136 size=4
.kernel_attr Target="3d"
.kernel_attr SimdSize=16
.kernel_attr PerThreadInputSize=64
    mul (M1_NM, 1) BASE(0,0)<1> K(0,0)<0;1,0> R0(0,1)<0;1,0>
    add (M1, 16) GID(0,0)<1> LX(0,0)<1;1,0> BASE(0,0)<0;1,0>
    shl (M1, 16) ADDR(0,0)<1> GID(0,0)<1;1,0> 0x2:uq
    add (M1, 16) ADDR(0,0)<1> ADDR(0,0)<1;1,0> OUT(0,0)<0;1,0>
    lsc_store.ugm (M1, 16)  flat[ADDR]:a64  GID:d32
    ret (M1, 1)
"""


def test_opencl_local_size():
    if not visa._capi.lib().has_launch:
        pytest.skip("this libvisa has no OpenCL launch API")
    m = visa.parse(OCL, name="ocl.visaasm")
    # two groups of 20 work-items: two SIMD16 threads each, the second with 4 lanes on
    out = np.full(48, 99, dtype=np.int32)
    r = m.run(args=[out, 20], groups=2, local_size=20)
    want = np.full(48, 99, dtype=np.int32)
    want[:40] = np.arange(40)
    assert np.array_equal(out, want)
    assert r.threads == 4
