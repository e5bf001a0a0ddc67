"""parse, print, load, errors as data."""
import os

import pytest

import visa

# A kernel written for these tests: a user comment, one add, ret.
KERNEL = """.version 4.1

.kernel "k"

.decl V32 v_type=G type=d num_elts=16 align=GRF
.decl V33 v_type=G type=d num_elts=16 align=GRF
.input V32 offset=64 size=64

.function "k_BB_0"
k_BB_0:
    // add one
    add (M1, 16) V33(0,0)<1> V32(0,0)<1;1,0> 0x1:d
    ret (M1, 1)
"""


def test_version_matches_the_package():
    assert visa.version() == visa.__version__
    # and the project's own version, written once in CMakeLists.txt
    with open(os.path.join(os.path.dirname(visa.__file__), "..", "..", "CMakeLists.txt")) as f:
        head = f.read(2000)
    assert f"project(visa VERSION {visa.version()} " in head


def test_platforms():
    names = visa.platforms()
    assert names[:1] == ["Gen9"] and "Xe2" in names and "XeHPC" in names
    with pytest.raises(ValueError, match="unknown platform"):
        visa.parse(KERNEL, platform="Gen1")


def test_parse_and_print_round_trip():
    m = visa.parse(KERNEL, name="k.visaasm")
    assert len(m) == 1 and m.name == "k.visaasm" and m.diagnostics == []
    text = m.print()
    assert "// add one" in text
    # IGC's printer numbers the instructions; KERNEL has no predefined-variable block, which
    # is IGC's asm-text print, and the formatter keeps that style
    assert "/// $1" in text and "v_name=%null" not in text
    # printing is a fixpoint: what it prints parses and prints identically
    assert visa.parse(text).print() == text
    stripped = m.print(strip_comments=True)
    assert "// add one" not in stripped and "add (M1, 16) V33(0,0)<1>" in stripped
    assert str(m) == text


def test_load_text_file(example):
    m = visa.load(example("saxpy.visaasm"))
    assert m.name.endswith("saxpy.visaasm")
    with open(example("saxpy.visaasm")) as f:
        # the example is in IGC's canonical form: it prints back byte for byte
        assert m.print() == f.read()


def test_syntax_error_is_data():
    bad = KERNEL.replace("    ret (M1, 1)", "    frobnicate (M1, 1) V33")
    with pytest.raises(visa.VisaError) as ei:
        visa.parse(bad, name="bad.visaasm")
    e = ei.value
    assert e.status_name == "syntax error" and e.status != 0
    d = e.errors[0]
    line = bad.splitlines().index("    frobnicate (M1, 1) V33") + 1
    assert (d.severity, d.code, d.file, d.line, d.col) == ("error", "E-SYNTAX", "bad.visaasm",
                                                            line, 5)
    assert "frobnicate" in d.message and d.offset is None
    assert d.source_line == "    frobnicate (M1, 1) V33"
    assert f"bad.visaasm:{line}:5: error:" in str(e)


def test_closed_module():
    m = visa.parse(KERNEL)
    m.close()
    with pytest.raises(ValueError, match="closed"):
        m.print()
    with visa.parse(KERNEL) as m2:
        assert len(m2) == 1
