"The README's Python code runs as written, top to bottom, in a fresh interpreter."
import re, subprocess, sys
from conftest import ROOT

def test_readme_code_runs():
    code = "\n\n".join(re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S))
    assert "import normxlogit" in code
    code = code.replace("\nex\n", "\nprint(repr(ex))\n")     # a bare expression displays in a notebook; print it here
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Paris" in r.stdout
