"""pip install the package against a temporary-prefix install of the build (cmake --install), and
use it from outside the tree with no VISA_LIBRARY: found next to the package (pip --prefix into
the same prefix), and through pkg-config (a venv).  Needs VISA_BUILD_DIR and VISA_CMAKE (set by
tests/run.sh) and pip."""
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
REPO = os.path.dirname(PACKAGE_ROOT)

BUILD = os.environ.get("VISA_BUILD_DIR")
CMAKE = os.environ.get("VISA_CMAKE", "cmake")

# What the installed package must do, run by a python outside the source tree.
PROBE = """
import sys, numpy as np, visa
m = visa.load({saxpy!r})
x = np.arange(16, dtype=np.float32); y = np.ones(16, dtype=np.float32)
m.run(args=[x, y, 2.5, 10])
assert y.tolist() == [2.5 * i + 1 for i in range(10)] + [1.0] * 6, y
print(visa.version(), visa.library_path(), visa.__file__)
"""


def pip_ok():
    return subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode == 0


pytestmark = [
    pytest.mark.skipif(not BUILD, reason="VISA_BUILD_DIR not set (tests/run.sh sets it)"),
    pytest.mark.skipif(bool(os.environ.get("VISA_SKIP_INSTALL_TEST")),
                       reason="VISA_SKIP_INSTALL_TEST (the sanitizer build)"),
    pytest.mark.skipif(not pip_ok(), reason="pip not available"),
]


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    p = tmp_path_factory.mktemp("prefix")
    r = subprocess.run([CMAKE, "--install", BUILD, "--prefix", str(p)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return p


def source_copy(tmp):
    # pip builds a local directory in place (build/, *.egg-info): give it a copy
    src = tmp / "src"
    shutil.copytree(PACKAGE_ROOT, src, ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info", "build", ".pytest_cache"))
    return src


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("VISA_LIBRARY", "PYTHONPATH", "PKG_CONFIG_PATH")}
    env.update(extra)
    return env


def pip_install(python, tmp, *args):
    r = subprocess.run([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                        *args, str(source_copy(tmp))], capture_output=True, text=True,
                       env=clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1",
                                     PIP_ROOT_USER_ACTION="ignore"))
    assert r.returncode == 0, r.stdout + r.stderr


def probe(python, tmp, env):
    code = PROBE.format(saxpy=os.path.join(REPO, "examples", "saxpy.visaasm"))
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=str(tmp),
                       env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    ver, lib, pkg = r.stdout.split()
    return ver, lib, pkg


def test_pip_prefix_finds_the_library_next_to_it(prefix, tmp_path):
    pip_install(sys.executable, tmp_path, "--no-deps", "--prefix", str(prefix))
    [site] = {os.path.dirname(os.path.dirname(os.path.join(d, f)))
              for d, _, fs in os.walk(prefix) for f in fs
              if f == "__init__.py" and os.path.basename(d) == "visa"}
    ver, lib, pkg = probe(sys.executable, tmp_path, clean_env(PYTHONPATH=site))
    assert pkg.startswith(str(prefix)) and lib.startswith(str(prefix))
    assert os.path.basename(lib) == "libvisa.so.0"
    with open(os.path.join(REPO, "CMakeLists.txt")) as f:
        assert f"project(visa VERSION {ver} " in f.read()


def test_venv_finds_the_library_through_pkg_config(prefix, tmp_path):
    if not shutil.which("pkg-config"):
        pytest.skip("pkg-config not found")
    venv = tmp_path / "venv"
    # the system's numpy and pip serve the venv: no network needed
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                        str(venv)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("venv not available: " + r.stderr.strip())
    py = str(venv / "bin" / "python")
    pip_install(py, tmp_path)  # with its dependency (numpy), satisfied by the system's
    [pc] = [d for d, _, fs in os.walk(prefix) if "visa.pc" in fs]
    ver, lib, pkg = probe(py, tmp_path, clean_env(PKG_CONFIG_PATH=pc))
    assert pkg.startswith(str(venv)) and lib.startswith(str(prefix))
