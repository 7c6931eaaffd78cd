"""Write README.md from nbs/index.ipynb (the landing page of the book): markdown cells verbatim, code cells as python
blocks, text outputs as plain blocks (rich outputs are left to the book). nbdev's own `nbdev_readme` needs Quarto."""
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def render():
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text())
    out = []
    for c in nb["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] == "markdown":
            out.append(src.replace("\n> ", "\n").replace("\n# normxlogit\n", "\n# normxlogit\n", 1))
        elif not src.startswith("#| hide"):
            if not src.startswith("#| echo: false"): out.append(f"```python\n{src}\n```")
            for o in c.get("outputs", []):
                data = o.get("data", {})
                if "text/markdown" in data: out.append("".join(data["text/markdown"]).strip()); continue
                txt = o.get("text") or data.get("text/plain")
                if txt and "text/html" not in data: out.append("```\n" + "".join(txt).rstrip() + "\n```")
    return "<!-- generated from nbs/index.ipynb by tools/readme.py: edit the notebook -->\n\n" + "\n\n".join(out) + "\n"

if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        sys.exit(0 if (ROOT / "README.md").read_text() == text
                 else "README.md is out of date: run python tools/readme.py")
    (ROOT / "README.md").write_text(text)
