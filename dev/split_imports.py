"""Move import lines out of cells that mix imports with other code (nbdev's doc processor executes any cell with an
import) into one `#| hide` import cell after the first import cell. Developer tool: python dev/split_imports.py nb.ipynb"""
import sys, re, nbformat

def fix(path):
    nb = nbformat.read(path, as_version=4)
    moved = []
    for c in nb.cells:
        if c.cell_type != "code" or c.source.lstrip().startswith("#|"): continue
        lines = c.source.split("\n")
        imps = [l for l in lines if re.match(r"^(import |from \S+ import )", l) and not l.rstrip().endswith(("(", "\\"))]
        rest = [l for l in lines if l not in imps]
        if imps and any(l.strip() and not l.strip().startswith("#") for l in rest):
            moved += imps; c.source = "\n".join(rest).strip("\n")
    if moved:
        idx = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "import" in c.source and i > 0), 1)
        nb.cells.insert(idx + 1, nbformat.v4.new_code_cell("#| hide\n" + "\n".join(dict.fromkeys(moved))))
        nbformat.write(nb, path)
    print(path, "moved", len(moved), "imports")

for p in sys.argv[1:]: fix(p)
