"The README's Python code runs as written, top to bottom, in a fresh interpreter."
import re, subprocess, sys
from conftest import ROOT

def test_readme_code_runs():
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    offline = [b for b in blocks if not b.startswith("# needs the network")]   # hub ids: said so in their first line
    assert 1 <= len(blocks) - len(offline) <= 1, "only the hub-id example may be skipped"
    code = "\n\n".join(offline)
    assert "import normxlogit" in code
    code = code.replace("\nex\n", "\nprint(repr(ex))\n")     # a bare expression displays in a notebook; print it here
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Paris" in r.stdout


def test_readme_has_no_stray_markup():
    "Only the generated-file notice is an HTML comment; chapter summaries' markers stay out of the README's tables."
    text = (ROOT / "README.md").read_text()
    assert text.count("<!--") == 1 and text.startswith("<!-- generated from nbs/index.ipynb")
