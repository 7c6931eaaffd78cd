"""Move top-level import statements out of cells that mix them with other code (nbdev's doc processor executes any
cell containing an import) into one `#| hide` import cell. Uses the AST, so imports inside strings or functions are
left alone (the repo test flags nested ones). Developer tool: python dev/split_imports.py nb.ipynb"""
import ast, sys, nbformat

def fix(path):
    nb = nbformat.read(path, as_version=4)
    moved = []
    for c in nb.cells:
        if c.cell_type != "code" or c.source.lstrip().startswith("#|"): continue
        try: tree = ast.parse(c.source)
        except SyntaxError: continue
        imps = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        if not imps or len(imps) == len(tree.body): continue
        lines = c.source.split("\n"); drop = set()
        for n in imps:
            moved.append("\n".join(lines[n.lineno - 1:n.end_lineno])); drop |= set(range(n.lineno - 1, n.end_lineno))
        c.source = "\n".join(l for i, l in enumerate(lines) if i not in drop).strip("\n")
    if moved:
        idx = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "import" in c.source and i > 0), 1)
        nb.cells.insert(idx + 1, nbformat.v4.new_code_cell("#| hide\n" + "\n".join(dict.fromkeys(moved))))
        nbformat.write(nb, path)
    print(path, "moved", len(moved), "imports")

for p in sys.argv[1:]: fix(p)
