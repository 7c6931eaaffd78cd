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

def test_notebooks_render_in_the_book():
    """nbdev drops everything but `# Title` and `> summary` from the first markdown cell, and its doc processor executes
    every cell with an import: so prose must not share the title cell and imports must not share a cell with other code."""
    import ast, re
    for nb_path in sorted((ROOT / "nbs").glob("*.ipynb")):
        nb = json.loads(nb_path.read_text())
        md = [c for c in nb["cells"] if c["cell_type"] == "markdown"]
        first = "".join(md[0]["source"]).strip().split("\n")
        extra = [l for l in first[1:] if l.strip() and not l.startswith(">")]
        assert first[0].startswith("# ") and not extra, f"{nb_path.name}: prose in the title cell would be dropped"
        for c in nb["cells"]:
            src = "".join(c["source"])
            if c["cell_type"] != "code" or re.search(r"^#\|\s*(export|exports|exporti|eval:\s*false)", src, re.M): continue
            try: tree = ast.parse("\n".join(l for l in src.split("\n") if not l.lstrip().startswith(("%", "!"))))
            except SyntaxError: continue
            has_imp = any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
            other = any(isinstance(n, (ast.Expr, ast.Assign)) for n in ast.walk(tree))
            assert not (has_imp and other and "#| hide" not in src), f"{nb_path.name}: imports mixed with code:\n{src[:300]}"
