"""encode / decode."""
import pytest

import visa


def test_encode_decode_round_trip(example):
    for name in ("saxpy.visaasm", "gemm.visaasm"):
        m = visa.load(example(name))
        obj = m.encode()
        # a vISA object: the "CISA" magic, then major 4, minor 1
        assert obj[:6] == b"CISA\x04\x01"
        back = visa.decode(obj, name="x.isa")
        assert back.source is None
        assert back.print(strip_comments=True) == m.print(strip_comments=True)
        assert back.encode() == obj


def test_load_object(example, tmp_path):
    m = visa.load(example("saxpy.visaasm"))
    p = tmp_path / "saxpy.isa"
    p.write_bytes(m.encode("Xe2"))
    assert visa.load(p).print() == m.print(strip_comments=True)


def test_malformed_object_reports_offsets(example):
    obj = visa.load(example("saxpy.visaasm")).encode()
    with pytest.raises(visa.VisaError) as ei:
        visa.decode(obj[: len(obj) // 2], name="cut.isa")
    e = ei.value
    assert e.errors and e.errors[0].file == "cut.isa"
    assert e.errors[0].line == 0 and e.errors[0].offset is not None
    assert e.errors[0].offset <= len(obj)
