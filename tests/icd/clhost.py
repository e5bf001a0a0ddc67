"""What the Python drivers of tests/icd share: Debian's python3 (where python3-pyopencl lives) and
whether a run can happen at all."""
import subprocess

PYTHON = "/usr/bin/python3"


def skip_reason(visa, modules="pyopencl", packages="python3-pyopencl"):
    """None when PYTHON imports the modules and `visa cl` finds visa's ICD, else why not (for a
    SKIPPED line and exit 77)."""
    if subprocess.run([PYTHON, "-c", "import " + modules], capture_output=True).returncode != 0:
        return "no %s for %s (Debian: %s)" % (modules, PYTHON, packages)
    probe = subprocess.run([visa, "cl", "--", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        return probe.stderr.strip()
    return None
