"""Split the exported cells of notebooks into one cell per top-level function or class (fastcore's style: a few lines
per cell). Statements between two definitions go with the one that follows them; comment lines directly above go
with what they describe; statements before the first definition (imports) stay a cell of their own. The code is
unchanged, only cut into cells.
    python tools/split_cells.py [--check] nbs/5*.ipynb   # --check: only print the median cell size before and after"""
import ast, json, secrets, statistics, sys
from pathlib import Path


def _src(c): return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def chunks(code: str) -> list:
    """The pieces of one exported cell's code (without its '#| export' line): each top-level def or class with the
    statements between it and the definition before it (constants it uses) and the comment lines above them."""
    lines = code.split("\n")
    try: tree = ast.parse(code)
    except SyntaxError: return [code]
    is_def = lambda n: isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    first = lambda n: min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", [])]) - 1   # 0-based
    cuts, group = [], None                     # group: index of the first statement after the last definition
    def about(n, d):                           # `d.attr = ...`: a statement that completes the definition `d`
        return isinstance(n, ast.Assign) and all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                                 and t.value.id == getattr(d, "name", None) for t in n.targets)
    last = None                                # the last definition seen
    for i, node in enumerate(tree.body):
        if i and is_def(tree.body[i - 1]): group, last = i, tree.body[i - 1]
        if group == i and about(node, last): group = i + 1
        if not is_def(node) or i == 0: continue
        g = group if group is not None and group <= i else i
        if g == 0: continue
        start = first(tree.body[g])
        while start > 0 and lines[start - 1].lstrip().startswith("#"): start -= 1
        if start >= tree.body[g - 1].end_lineno and (not cuts or start > cuts[-1]): cuts.append(start)
        group = None
    out, a = [], 0
    for c in cuts: out.append("\n".join(lines[a:c]).strip("\n")); a = c
    out.append("\n".join(lines[a:]).strip("\n"))
    return [o for o in out if o.strip()]


def split_nb(path: Path, write: bool) -> tuple:
    nb = json.loads(path.read_text())
    before, after, cells = [], [], []
    for c in nb["cells"]:
        s = _src(c)
        if c["cell_type"] != "code" or not s.startswith("#| export\n"):
            cells.append(c); continue
        before.append(len(s.splitlines()) - 1)
        parts = chunks(s[len("#| export\n"):])
        for k, p in enumerate(parts):
            d = dict(c, source="#| export\n" + p, outputs=[], execution_count=None)
            if k: d["id"] = secrets.token_hex(4)
            cells.append(d); after.append(len(p.splitlines()))
    if write:
        nb["cells"] = cells
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return before, after


if __name__ == "__main__":
    check = "--check" in sys.argv
    B, A = [], []
    for f in [a for a in sys.argv[1:] if a != "--check"]:
        b, a = split_nb(Path(f), not check); B += b; A += a
    print(f"exported cells: {len(B)} -> {len(A)}; median lines {statistics.median(B)} -> {statistics.median(A)}")
