"The repository is what nbdev says it is: library exported from the notebooks, notebooks clean, README from index."
import json, shutil, sys
from pathlib import Path
from conftest import ROOT, run

BIN = Path(sys.executable).parent

def test_library_matches_notebooks(tmp_path):
    "Exporting the notebooks reproduces normxlogit/ exactly (nobody edited the .py files by hand)."
    before = {p.name: p.read_text() for p in (ROOT / "normxlogit").glob("*.py")}
    run(BIN / "nbdev_export")
    after = {p.name: p.read_text() for p in (ROOT / "normxlogit").glob("*.py")}
    assert before == after, f"out of sync: {[k for k in after if before.get(k) != after[k]]}"

def test_notebooks_are_clean(tmp_path):
    "nbdev_clean changes nothing (no execution counts, stray metadata)."
    nbs = sorted((ROOT / "nbs").glob("*.ipynb"))
    for nb in nbs: shutil.copy(nb, tmp_path / nb.name)
    run(BIN / "nbdev_clean", "--fname", tmp_path)
    dirty = [nb.name for nb in nbs if json.loads((tmp_path / nb.name).read_text()) != json.loads(nb.read_text())]
    assert not dirty, f"run nbdev_clean on {dirty}"

def test_readme_generated_from_index():
    r = run(sys.executable, "tools/readme.py", "--check", check=False)
    assert r.returncode == 0, r.stderr

def test_readme_test_command_is_ci():
    readme = (ROOT / "README.md").read_text()
    assert "bash tools/test.sh" in readme and "bash tools/test.sh" in (ROOT / ".ci" / "run").read_text()
