"""One-off refactoring aid: move top-level definitions (functions, classes, assignments) out of the exported cells of
one notebook into a new exported cell of another (issue 30: library code back in its room)."""
import ast, json, sys, uuid
from pathlib import Path

def load(p): return json.loads(Path(p).read_text())
def save(p, nb): Path(p).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
def src(c): return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]

def take(nb, names):
    "Remove the definitions `names` from exported cells of nb; return their source text in order found."
    got = {}
    for c in nb["cells"]:
        s = src(c)
        if c["cell_type"] != "code" or not s.lstrip().startswith("#| export"): continue
        lines = s.split("\n")
        tree = ast.parse(s)
        cut = []
        for node in tree.body:
            nm = getattr(node, "name", None)
            if nm is None and isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name): nm = node.targets[0].id
            if nm is None and isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name): nm = node.target.id
            if nm in names:
                start = (node.decorator_list[0].lineno if getattr(node, "decorator_list", None) else node.lineno) - 1
                cut.append((start, node.end_lineno, nm))
        for start, end, nm in sorted(cut, reverse=True):
            got[nm] = "\n".join(lines[start:end])
            del lines[start:end]
            while start < len(lines) and start > 0 and lines[start - 1].strip() == "" and lines[start].strip() == "": del lines[start]
        if cut: c["source"] = "\n".join(lines).rstrip("\n")
    missing = set(names) - set(got)
    if missing: raise SystemExit(f"not found: {missing}")
    return [got[n] for n in names]

def put(nb, code, after_last_export=True, check=None):
    "Add an exported cell with `code` (and a check cell) after the last exported cell of nb."
    idx = max(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and src(c).lstrip().startswith("#| export"))
    new = [dict(cell_type="code", execution_count=None, id=uuid.uuid4().hex[:8], metadata={}, outputs=[], source="#| export\n" + code)]
    if check: new.append(dict(cell_type="code", execution_count=None, id=uuid.uuid4().hex[:8], metadata={}, outputs=[], source=check))
    nb["cells"][idx + 1: idx + 1] = new

def move(src_nb, dst_nb, names, prefix="", check=None):
    a = load(src_nb); b = load(dst_nb)
    parts = take(a, names)
    put(b, prefix + "\n\n".join(parts), check=check)
    save(src_nb, a); save(dst_nb, b)
