"The repository is what nbdev says it is: library exported from the notebooks, notebooks clean, README from index."
import json, shutil, sys
from pathlib import Path
from conftest import ROOT, run

BIN = Path(sys.executable).parent

def test_library_matches_notebooks(tmp_path):
    "Exporting the notebooks reproduces normxlogit/ exactly (nobody edited the .py files by hand)."
    files = lambda: {str(p.relative_to(ROOT)): p.read_text() for p in (ROOT / "normxlogit").rglob("*.py")}
    before = files()
    run(BIN / "nbdev_export")
    after = files()
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
    """nbdev drops everything but `# Title` and `> summary` from the first markdown cell, and its doc processor
    executes every cell with an import: so prose must not share the title cell and imports must not share a cell with
    other code."""
    import ast, re
    for nb_path in sorted((ROOT / "nbs").glob("*.ipynb")):
        nb = json.loads(nb_path.read_text())
        md = [c for c in nb["cells"] if c["cell_type"] == "markdown"]
        first = "".join(md[0]["source"]).strip().split("\n")
        extra = [l for l in first[1:] if l.strip() and not l.startswith(">")]
        assert first[0].startswith("# ") and not extra, f"{nb_path.name}: prose in the title cell would be dropped"
        for c in nb["cells"]:
            src = "".join(c["source"])
            if c["cell_type"] != "code" or re.search(r"^#\|\s*(export|exports|exporti|eval:\s*false)", src, re.M):
                continue
            try: tree = ast.parse("\n".join(l for l in src.split("\n") if not l.lstrip().startswith(("%", "!"))))
            except SyntaxError: continue
            has_imp = any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(tree))
            other = any(isinstance(n, (ast.Expr, ast.Assign)) for n in ast.walk(tree))
            assert not (has_imp and other and "#| hide" not in src), (f"{nb_path.name}: imports mixed with "
                                                                      f"code:\n{src[:300]}")

def _modules():
    return sorted(p for p in (ROOT / "normxlogit").rglob("*.py") if p.name != "_modidx.py")

def test_modules_compile_without_warnings():
    "No module warns when compiled (e.g. an invalid escape in a docstring made from a chapter's LaTeX summary)."
    import warnings
    for p in _modules():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(p.read_text(), str(p), "exec")

def test_import_graph():
    """The library's import graph has no cycle, and nothing outside `normxlogit.experiments` and the command line
    imports the experiments; `normxlogit.paths` is the only module that reads the NORMXLOGIT_* location variables."""
    import ast, re
    mods, files = {}, {}
    for p in _modules():
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts).replace(".__init__", "")
        deps = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:   # relative import
                    pkg = name.split(".") if p.name == "__init__.py" else name.split(".")[:-1]
                    base = ".".join(pkg[: len(pkg) - node.level + 1] + ([base] if base else []))
                if base.startswith("normxlogit"):
                    deps.add(base)
                    for a in node.names:
                        if (
                            f"{base}.{a.name}".replace("normxlogit.", "", 1)
                            and (ROOT / (base.replace(".", "/") + f"/{a.name}.py")).exists()
                        ):
                            deps.add(f"{base}.{a.name}")
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("normxlogit")}
        mods[name] = {d for d in deps if d != name and d != "normxlogit"}
        files[name] = p
    for name, deps in mods.items():
        if not name.startswith(("normxlogit.experiments", "normxlogit.cli")):
            assert not any(d.startswith("normxlogit.experiments") for d in deps), (
                f"{name} imports experiment code: {deps}"
            )
    state = {}
    def visit(n, path):
        if state.get(n) == 1: raise AssertionError(f"import cycle: {' -> '.join(path + [n])}")
        if state.get(n) == 2: return
        state[n] = 1
        for d in mods.get(n, ()): visit(d, path + [n])
        state[n] = 2
    for n in mods:
        if n != "normxlogit": visit(n, [])
    env = re.compile(r"environ(?:\.get)?[\[(]\s*[\"']NORMXLOGIT_(?:DATA|CACHE|MODELS|RESULTS)")
    readers = [n for n in mods if n != "normxlogit.paths" and env.search(files[n].read_text())]
    assert not readers, f"modules resolving locations themselves: {readers}"

def test_stored_outputs_are_clean():
    """What the book shows a reader: no error output, no stderr stream (progress bars excepted), no absolute path of
    the machine that ran the notebook."""
    import re
    local = re.compile(r"(?<![\w.])/(work|home|tmp|root|Users)/[\w.-]+/")
    bad = []
    for nb_path in sorted((ROOT / "nbs").glob("*.ipynb")):
        for c in json.loads(nb_path.read_text())["cells"]:
            for o in c.get("outputs", []):
                txt = "".join(o.get("text", "")) if o.get("output_type") == "stream" else json.dumps(o.get("data", {}))
                if o.get("output_type") == "error": bad.append((nb_path.name, "error output"))
                if o.get("name") == "stderr" and not re.search(r"\d+%\||it/s|s/it", txt):
                    bad.append((nb_path.name, txt[:120]))
                if local.search(txt): bad.append((nb_path.name, local.search(txt).group(0)))
    assert not bad, bad

def test_source_links_lead_to_their_code():
    """Every stored `source` link of a show_doc points to a file of the package, and to the module the chapter exports:
    a function defined in a notebook is looked up by its name alone, which picks another module's function of the same
    name (three experiments have a `reproduce`)."""
    import re
    bad = []
    for nb_path in sorted((ROOT / "nbs").glob("*.ipynb")):
        cells = json.loads(nb_path.read_text())["cells"]
        m = re.search(r"default_exp\s+(\S+)", "".join(cells[0]["source"]))
        own = m and m.group(1).replace(".", "/") + ".py"
        for c in cells:
            for link in re.findall(r"blob/main/normxlogit/([^#\"\\]+)#L", json.dumps(c.get("outputs", []))):
                if not (ROOT / "normxlogit" / link).exists() or (own and link != own): bad.append((nb_path.name, link))
    assert not bad, bad

def test_show_doc_outputs_are_current():
    """A stored show_doc output is what show_doc renders today (signature and docstring; the source line aside): a
    chapter not re-executed after its code changed shows the reader a stale signature."""
    import importlib, re
    from nbdev.showdoc import show_doc
    strip = lambda t: re.sub(r"\[source\]\([^)]*\)\{[^}]*\}", "", t).strip()
    stale, compared = [], 0
    for nb_path in sorted((ROOT / "nbs").glob("*.ipynb")):
        cells = json.loads(nb_path.read_text())["cells"]
        m = re.search(r"default_exp\s+(\S+)", "".join(cells[0]["source"]))
        if not m: continue
        mod = importlib.import_module("normxlogit." + m.group(1))
        for c in cells:
            names = re.findall(r"^show_doc\((?:_here\.)?([\w.]+)\)$", "".join(c["source"]).strip(), re.M)
            if not names: continue
            objs = [mod] * len(names)
            for i, n in enumerate(names):
                for part in n.split("."): objs[i] = getattr(objs[i], part)
            now = "".join(show_doc(o)._repr_markdown_() for o in objs)
            old = "".join("".join(o["data"].get("text/markdown", "")) for o in c.get("outputs", []) if "data" in o)
            compared += 1
            if strip(now) != strip(old) and re.sub(r"\s+", "", strip(now)) != re.sub(r"\s+", "", strip(old)):
                stale.append((nb_path.name, names))
    assert compared > 20 and not stale, (compared, stale)

def test_no_pickle_in_the_library():
    "Caches and artifacts are data: nothing in the library unpickles (pickle, torch.load, allow_pickle=True)."
    import re

    bad = re.compile(
        r"^\s*(import pickle|from pickle)|pickle\.loads?\(|torch\.load\(|allow_pickle\s*=\s*True|joblib", re.M
    )
    hits = [p.name for p in _modules() if bad.search(p.read_text())]
    assert not hits, hits

def test_the_house_has_rooms():
    """Folders by role: at most 12 modules at the top level (bar `_modidx.py`), no module over 700 lines (nbdev's
    `# %%` cell markers not counted: a chapter cut into small cells is not a longer module), no module
    imports the package itself (`import normxlogit`, `from normxlogit import ...`, `from .. import ...`: upward)."""
    import ast
    top = [p.name for p in (ROOT / "normxlogit").glob("*.py") if p.name not in ("_modidx.py", "__init__.py")]
    assert len(top) <= 12, top
    lines = lambda p: [x for x in p.read_text().splitlines() if not x.startswith("# %% ")]
    long = {str(p.relative_to(ROOT)): n for p in _modules() if (n := len(lines(p))) > 700}
    assert not long, long
    for p in _modules():
        if p.name == "__init__.py" or p.name == "cli.py": continue    # the command line is a user of the package
        for node in ast.walk(ast.parse(p.read_text())):
            up = (isinstance(node, ast.Import) and any(a.name == "normxlogit" for a in node.names)
                  or isinstance(node, ast.ImportFrom) and (node.module == "normxlogit" or
                     node.level and not node.module and node.level >= len(p.relative_to(ROOT).parts) - 1))
            assert not up, f"{p.relative_to(ROOT)} imports the package from above: {ast.unparse(node)}"

def test_sidebar_lists_every_chapter():
    import yaml
    side = yaml.safe_load((ROOT / "nbs" / "sidebar.yml").read_text())["website"]["sidebar"]["contents"]
    # sections of chapters, in order
    listed = [n for s in side for n in (s["contents"] if isinstance(s, dict) else [s])]
    assert len(listed) == len(set(listed)), "a chapter listed twice"
    assert sorted(listed) == sorted(p.name for p in (ROOT / "nbs").glob("*.ipynb"))
    parts = [s["section"] for s in side if isinstance(s, dict)]
    def title(n):
        md = next(c for c in json.loads((ROOT / "nbs" / n).read_text())["cells"] if c["cell_type"] == "markdown")
        return "".join(md["source"]).split("\n")[0].lstrip("# ").strip()
    shared = set(parts) & {title(n) for n in listed}
    assert not shared, f"a part and a chapter share a name: {shared}"

# Every rule of pyproject.toml's [tool.ruff.lint], long lines (E501, at 120) included, finds nothing in the notebooks,
# the package, the tests and the tools. Not counted: the package lines nbdev writes itself rather than copies from a
# cell (line 1, the module docstring made from the chapter's `> ` subtitle, and the `__all__` list, which nbdev wraps
# at 120 before prefixing `__all__ = `); no cell can shorten them, and `nbdev_written` names them.

def nbdev_written(finding) -> bool:
    "Is this E501 finding of the package on a line nbdev writes itself (the module docstring or `__all__`)?"
    code, _, where = finding
    path, row = where.rsplit(":", 1)
    if code != "E501" or not path.startswith("normxlogit/"): return False
    lines, row = (ROOT / path).read_text().splitlines(), int(row)
    if row == 1: return lines[0].startswith('"""') and lines[0].endswith('"""')
    start = next((i for i, line in enumerate(lines, 1) if line.startswith("__all__ = [")), None)
    end = next((i for i, line in enumerate(lines, 1) if start and i >= start and line.rstrip().endswith("]")), None)
    return start is not None and start <= row <= end

def ruff_findings(*paths) -> list:
    "ruff's findings (pyproject.toml's rules) as (code, top folder, file:line) rows."
    r = run(BIN / "ruff", "check", "--output-format", "json", *paths, check=False)
    assert r.returncode in (0, 1), r.stderr
    rel = lambda f: Path(f["filename"]).relative_to(ROOT)
    return [(f["code"], rel(f).parts[0], f"{rel(f)}:{f['location']['row']}") for f in json.loads(r.stdout)]

def test_ruff():
    "ruff (it reads the notebooks) finds no problem, long lines included (nbdev's own lines aside)."
    found = [f for f in ruff_findings("nbs", "normxlogit", "tests", "tools") if not nbdev_written(f)]
    assert not found, f"ruff: {found[:20]}"

def test_ruff_can_fail(tmp_path):
    "The rules bite: an undefined name and an unused variable are found."
    bad = ROOT / "tools" / "_ruff_probe_tmp.py"
    bad.write_text("def f():\n    x = 1\n    return undefined_name\n")
    try: codes = {f[0] for f in ruff_findings(str(bad))}
    finally: bad.unlink()
    assert {"F821", "F841"} <= codes, codes

def test_nbdev_written_names_only_nbdevs_lines():
    "The exemption is narrow: the package's docstring and `__all__` lines are nbdev's; a long line of code is not."
    lines = (ROOT / "normxlogit/core.py").read_text().splitlines()
    row = next(i for i, line in enumerate(lines, 1) if line.startswith("__all__ = ["))
    code = next(i for i, line in enumerate(lines, 1) if line.startswith("def "))
    assert nbdev_written(("E501", "normxlogit", "normxlogit/core.py:1"))
    assert nbdev_written(("E501", "normxlogit", f"normxlogit/core.py:{row}"))
    assert not nbdev_written(("E501", "normxlogit", f"normxlogit/core.py:{code}"))
    assert not nbdev_written(("F401", "normxlogit", "normxlogit/core.py:1"))
    assert not nbdev_written(("E501", "nbs", "nbs/04_core.ipynb:1"))

# Functions over 60 lines and public functions with more than 10 parameters still present (issue 37's size rules): a
# ceiling that may only fall. The parameter rule is for experiment code: the user's calls `explain`,
# `explain_generation` and `faithfulness` keep the keyword arguments users expect (the brief says so): not counted.
SIZE_CEILINGS = {"functions over 60 lines": 0, "public functions over 10 parameters": 1}
USER_API = ("normxlogit/core.py:explain", "normxlogit/generation.py:explain_generation",
            "normxlogit/metrics/faithfulness.py:faithfulness")

def _function_sizes() -> dict:
    import ast
    out = {k: [] for k in SIZE_CEILINGS}
    for p in _modules():
        for n in ast.walk(ast.parse(p.read_text())):
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)): continue
            a, name = n.args, f"{p.relative_to(ROOT)}:{n.name}"
            method = bool(a.args) and a.args[0].arg in ("self", "cls")
            k = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) - method
            if n.end_lineno - n.lineno + 1 > 60: out["functions over 60 lines"].append(name)
            if k > 10 and not n.name.startswith("_") and name not in USER_API:
                out["public functions over 10 parameters"].append(name)
    return out

def test_size_rules():
    "Experiment chapters in small exported cells (median at most 25 lines); long and wide functions under a ceiling."
    import statistics
    src = lambda c: "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
    cells = [len(src(c).splitlines()) - 1 for nb in sorted((ROOT / "nbs").glob("5*.ipynb"))
             for c in json.loads(nb.read_text())["cells"]
             if c["cell_type"] == "code" and src(c).startswith("#| export")]
    assert statistics.median(cells) <= 25, statistics.median(cells)
    over = {k: v for k, v in _function_sizes().items() if len(v) > SIZE_CEILINGS[k]}
    assert not over, f"over the ceiling {SIZE_CEILINGS}: {over}"

# Experiment code (issue 37, item 6): `experiments/*.py` and the faithfulness runner, counted as the issue counts it
# (`wc -l`, nbdev's cell markers included). The target is 4,500 lines; until it is met, a ceiling that may only fall,
# so that a change that makes experiment code longer has to say so here.
EXPERIMENT_LINES = {"target": 4500, "ceiling": 5474}

def experiment_lines() -> int:
    pkg = ROOT / "normxlogit"
    files = [*(pkg / "experiments").glob("*.py"), pkg / "metrics" / "faithfulness_run.py"]
    return sum(len(p.read_text().splitlines()) for p in files)

def test_experiment_code_only_shrinks():
    n = experiment_lines()
    ceiling = EXPERIMENT_LINES["ceiling"]
    assert n <= ceiling, f"experiment code grew to {n} lines (ceiling {ceiling})"
    assert ceiling - n < 50 or n <= EXPERIMENT_LINES["target"], \
        f"experiment code is down to {n} lines: lower the ceiling ({ceiling}) to hold the gain"

# what only the notebooks, the tests or optional extras use; the package must import without them
NOT_REQUIRED = ("fastcore", "nbdev", "execnb", "IPython", "pytest", "hypothesis", "captum", "spacy", "fastcoref")

def _import_all(blocked) -> str:
    return ("import sys, importlib, pkgutil\n"
            f"for m in {tuple(blocked)!r}: sys.modules[m] = None\n"
            "import normxlogit\n"
            "bad = []\n"
            "for mi in pkgutil.walk_packages(normxlogit.__path__, 'normxlogit.'):\n"
            "    try: importlib.import_module(mi.name)\n"
            "    except ImportError as e: bad.append(f'{mi.name}: {e}')\n"
            "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n")

def test_package_imports_with_its_requirements_only():
    "Every module imports with settings.ini's requirements only; a notebook-only import (fastcore's patch) would fail."
    r = run(sys.executable, "-c", _import_all(NOT_REQUIRED), check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    blocked_too = run(sys.executable, "-c", _import_all(NOT_REQUIRED + ("pandas",)), check=False)
    assert blocked_too.returncode != 0 and "pandas" in blocked_too.stdout + blocked_too.stderr   # the check can fail

WRAP_SAMPLE = '''from normxlogit.model.batch import as_inputs, make_batch, token_offsets, max_length, input_lengths, plan_batches, MAX_TOKENS
LIMIT = 30                     # the floor: a (model, task) with fewer scored items is left out of the tables and the findings

def f(texts, target=None, layer=None):
    "One line of a docstring that is far too long for the line limit of this repository, so it must become several lines."
    return dict(texts=texts, target=target, layer=layer, first_token_of_the_answer=None, second_token_of_the_answer=None)

def g(texts, target):
    """Explain `texts`.

    texts: a string, a pair of strings (sentence-pair tasks), or a list (or any iterable, e.g. a generator) of either one.
    target: what is explained."""
    n = len(texts)
    return (f"{n} texts and the target {target!r}: every one of them is explained with its own target and its own foil, "
            f"in input order ({n} of them), whatever order the batches ran in; the scores never depend on the batch.")
'''  # noqa: E501 (the sample's long lines are the point)

def test_wrap_lines_keeps_meaning(tmp_path):
    "tools/wrap_lines.py brings every line under 120 characters, keeps the AST and keeps `name: text` docstring lines."
    import ast, importlib.util
    spec = importlib.util.spec_from_file_location("wrap_lines", ROOT / "tools" / "wrap_lines.py")
    wl = importlib.util.module_from_spec(spec); spec.loader.exec_module(wl)
    py = tmp_path / "sample.py"; py.write_text(WRAP_SAMPLE)
    cell = "%time x = 1\n" + WRAP_SAMPLE
    nb = tmp_path / "sample.ipynb"
    nb.write_text(json.dumps(dict(cells=[dict(cell_type="code", id="c0", metadata={}, source=cell, outputs=[],
                                              execution_count=None)], metadata={}, nbformat=4, nbformat_minor=5)))
    assert sum(len(line) > 120 for line in WRAP_SAMPLE.splitlines()) >= 6
    run(sys.executable, "tools/wrap_lines.py", str(py), str(nb))
    for new in (py.read_text(), json.loads(nb.read_text())["cells"][0]["source"]):
        assert all(len(line) <= 120 for line in new.splitlines()), new
        body = new.removeprefix("%time x = 1\n")
        assert wl.norm_dump(body) == wl.norm_dump(WRAP_SAMPLE)
        doc = ast.get_docstring(ast.parse(body).body[-1])
        assert [line.split(":")[0] for line in doc.splitlines() if ":" in line] == ["texts", "target"], doc
    assert json.loads(nb.read_text())["cells"][0]["source"].startswith("%time x = 1\n")

def test_wheel_ships_the_papers_numbers(tmp_path):
    "An installed (not editable) package has the papers' transcriptions that the chapters set beside our numbers."
    import zipfile
    src = tmp_path / "src"
    shutil.copytree(ROOT / "normxlogit", src / "normxlogit", ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("setup.py", "settings.ini", "MANIFEST.in", "README.md"): shutil.copy(ROOT / f, src / f)
    run(BIN / "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(src), "-w", str(tmp_path / "w"))
    names = zipfile.ZipFile(next((tmp_path / "w").glob("*.whl"))).namelist()
    shipped = sorted(Path(n).stem for n in names if n.startswith("normxlogit/experiments/papers/"))
    have = sorted(p.stem for p in (ROOT / "normxlogit" / "experiments" / "papers").glob("*.txt"))
    assert have and shipped == have, (shipped, have)
