"""Tests of the Python package.  Run by tests/run.sh (CTest `python`), which passes the build's
library in VISA_LIBRARY; run by hand: VISA_LIBRARY=build/libvisa.so.0 python3 -m pytest python/tests
"""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)  # python/
REPO = os.path.dirname(PACKAGE_ROOT)
# the package under test is this tree's, unless a test installs it elsewhere
sys.path.insert(0, PACKAGE_ROOT)


@pytest.fixture
def example():
    return lambda name: os.path.join(REPO, "examples", name)


def pytest_terminal_summary(terminalreporter):
    # the house format every test program ends with
    s = terminalreporter.stats
    failed = len(s.get("failed", [])) + len(s.get("error", []))
    terminalreporter.write_line(f"{len(s.get('passed', []))} passed, {failed} failed")
