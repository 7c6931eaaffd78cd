"""Convert a percent-format script (`# %%` code cells, `# %% [md]` markdown cells) into an .ipynb.

Developer convenience only: the notebooks in nbs/ are the source of truth.
Usage: python dev/py2nb.py src.py nbs/XX_name.ipynb
"""
import sys, re, nbformat

def convert(src, dst):
    text = open(src).read()
    parts = re.split(r'^# %%(.*)$', text, flags=re.M)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "python3", "language": "python", "name": "python3"}}
    for header, body in zip(parts[1::2], parts[2::2]):
        body = body.strip('\n')
        if '[md]' in header:
            lines = [l[2:] if l.startswith('# ') else ('' if l == '#' else l) for l in body.split('\n')]
            nb.cells.append(nbformat.v4.new_markdown_cell('\n'.join(lines).strip('\n')))
        else:
            nb.cells.append(nbformat.v4.new_code_cell(body))
    nbformat.write(nb, dst)

if __name__ == '__main__': convert(sys.argv[1], sys.argv[2])
