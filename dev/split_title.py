"""nbdev turns the first markdown cell (`# Title` + `> summary`) into page front matter and drops anything else in
that cell. Move the rest of the cell into its own markdown cell. Developer tool: python dev/split_title.py nbs/*.ipynb"""
import sys, nbformat

def fix(path):
    nb = nbformat.read(path, as_version=4)
    for i, c in enumerate(nb.cells):
        if c.cell_type != "markdown": continue
        lines = c.source.split("\n")
        if not lines[0].startswith("# "): break
        keep = [lines[0]]; j = 1
        while j < len(lines) and (not lines[j].strip() or lines[j].startswith(">")):
            if lines[j].startswith(">"): keep.append(lines[j])
            j += 1
            if len(keep) == 2: break
        rest = "\n".join(lines[j:]).strip("\n")
        if rest:
            c.source = "\n\n".join(keep)
            nb.cells.insert(i + 1, nbformat.v4.new_markdown_cell(rest))
            nbformat.write(nb, path); print(path, "split")
        break

for p in sys.argv[1:]: fix(p)
