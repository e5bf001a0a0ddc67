"""verify: warnings returned, errors raised with the rule id at the operand."""
import pytest

import visa

BODY = """.version 4.1

.kernel "k"

.decl V32 v_type=G type=d num_elts=16 align=GRF
.decl V33 v_type=G type=d num_elts=16 align=GRF
.decl {name} v_type=G type=d num_elts=1
.input V32 offset=64 size=64

.function "k_BB_0"
k_BB_0:
    mov (M1, 1) {name}(0,0)<1> 0x0:d
    add (M1, 16) V33(0,0)<1> {src} 0x1:d
    ret (M1, 1)
"""


def kernel(src="V32(0,0)<1;1,0>", name="V40"):
    return BODY.format(src=src, name=name)


def test_clean_kernel_verifies():
    assert visa.parse(kernel()).verify() == []


def test_example_verifies(example):
    assert [d for d in visa.load(example("gemm.visaasm")).verify("Xe2")
            if d.severity == "error"] == []


def test_error_raises_with_rule_and_position():
    # a region of width 0 (<1;0,1>): the spec allows widths 1, 2, 4, 8, 16
    src = "V32(0,0)<1;0,1>"
    text = kernel(src)
    m = visa.parse(text, name="w.visaasm")
    with pytest.raises(visa.VisaError) as ei:
        m.verify(platform="Xe2")
    e = ei.value
    assert e.status_name.startswith("verif")
    [d] = [d for d in e.diagnostics if d.code == "V-REGION-WIDTH"]
    line = [i for i, s in enumerate(text.splitlines(), 1) if src in s][0]
    col = text.splitlines()[line - 1].index(src) + 1
    assert (d.severity, d.rule, d.file, d.line, d.col) == ("error", "V-REGION-WIDTH", "w.visaasm",
                                                            line, col)
    assert d.source_line == text.splitlines()[line - 1]


def test_warning_is_returned_and_werror_raises():
    # variable names longer than 64 characters are a warning (V-NAME-LENGTH)
    long_name = "V" + "x" * 70
    m = visa.parse(kernel(name=long_name))
    diags = m.verify()
    assert [(d.severity, d.code) for d in diags] == [("warning", "V-NAME-LENGTH")]
    assert diags[0].line > 0
    with pytest.raises(visa.VisaError) as ei:
        m.verify(werror=True)
    assert [d.code for d in ei.value.diagnostics] == ["V-NAME-LENGTH"]
