"""The README's Python example runs as written."""
import os
import re

from conftest import REPO


def test_readme_example(monkeypatch, capsys):
    with open(os.path.join(REPO, "README.md")) as f:
        readme = f.read()
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    [code] = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(code.splitlines()) <= 10
    monkeypatch.chdir(REPO)
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "[]" and out[1].startswith("6 ")
