"""Execute notebooks in place (storing their outputs for the book), then clean them.

    python tools/execute_nbs.py nbs/20_normxlogit.ipynb [more.ipynb ...]

Outputs are what the book shows when built with `--no-exec`; `bash tools/book.sh` re-executes everything.
Widget state (progress bars) is dropped: it is large and renders as nothing in a static page."""
import os, re, subprocess, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("NORMXLOGIT_DATA", str(ROOT.parent / "shared" / "data"))

def execute(path):
    nb = nbformat.read(path, as_version=4)
    skipped = {}  # `#| eval: false` cells (e.g. training) are shown but not run, as in nbdev_test
    for i, c in enumerate(nb.cells):
        if c.cell_type == "code" and re.search(r"^#\|\s*eval:\s*false", c.source, re.M):
            skipped[i] = c.source; c.source = ""
    NotebookClient(nb, timeout=3600, kernel_name="python3",
                   resources={"metadata": {"path": str(Path(path).parent)}}).execute()
    for i, src in skipped.items(): nb.cells[i].source = src; nb.cells[i].outputs = []
    nb.metadata.pop("widgets", None)
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs = [o for o in c.outputs if "application/vnd.jupyter.widget-view+json" not in o.get("data", {})]
    nbformat.write(nb, path)

if __name__ == "__main__":
    for p in sys.argv[1:]:
        print("executing", p, flush=True); execute(p)
    for p in sys.argv[1:]: subprocess.run([str(Path(sys.executable).parent / "nbdev_clean"), "--fname", p], check=True)
