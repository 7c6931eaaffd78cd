"""Render the nbdev notebooks as a Jupyter Book (static HTML in _build/html).

Quarto (nbdev's own renderer) cannot be installed everywhere, so the book is built with Jupyter Book 1:
1. nbdev's processors clean the notebooks into _proc/ (hidden cells removed, `show_doc` cells added and rendered);
2. the table of contents is read from nbs/sidebar.yml (the reading order Quarto uses too);
3. MathJax is served locally (npm package `mathjax@3`) so formulas render without a CDN;
4. `jupyter-book build` renders _proc/ into _build/html, executing notebooks when asked (`--execute cache|force`).
"""
import argparse, ast, json, os, re, shutil, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROC, BUILD = ROOT / "_proc", ROOT / "_build"

def execute_copy():
    """Run every notebook (a copy of nbs/, so the sources keep their stored outputs) before nbdev's processing, which
    strips hidden set-up cells and so leaves notebooks that cannot run on their own."""
    src = ROOT / "_nbs_exec"  # beside nbs/, so notebooks find ../tools, ../results as usual
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(ROOT / "nbs", src)
    nbs = sorted(str(p) for p in src.glob("*.ipynb"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, str(ROOT / "tools" / "execute_nbs.py"), *nbs], check=True, env=env, cwd=src)
    return src

def proc(only="", path="nbs"):
    import nbdev.doclinks
    from nbdev.serve import proc_nbs
    os.chdir(ROOT)
    nbdev.doclinks._build_modidx()
    shutil.rmtree(PROC, ignore_errors=True)
    kw = dict(skip_file_re=f"^([_.]|(?!{only}))") if only else {}
    proc_nbs(path=str(path), n_workers=0, force=True, **kw)
    for extra in ["_quarto.yml", "nbdev.yml", "sidebar.yml"]: (PROC / extra).unlink(missing_ok=True)

def _yaml_front(src):
    import yaml
    body = src.strip().strip("-").strip()
    return yaml.safe_load(body) or {}

def adapt():
    "Turn nbdev's Quarto-flavoured notebooks into plain MyST notebooks for Jupyter Book."
    import nbformat
    pages = {}
    nbs = sorted(PROC.glob("*.ipynb"))
    books = {}
    for p in nbs:
        nb = nbformat.read(p, as_version=4)
        if nb.cells and nb.cells[0].cell_type == "raw" and nb.cells[0].source.startswith("---"):
            fm = _yaml_front(nb.cells[0].source)
            if fm.get("output-file"): pages[fm["output-file"]] = p.stem + ".ipynb"   # a document link MyST resolves
            title = fm.get("title", p.stem)
            desc = f"\n\n*{fm['description'].strip()}*" if fm.get("description") else ""
            nb.cells[0] = nbformat.v4.new_markdown_cell(f"# {title}{desc}")
        books[p] = nb
    relink = linker([p.stem for p in (ROOT / "nbs").glob("*.ipynb")])
    for p, nb in books.items():
        for c in nb.cells:
            c.pop("id", None)
            if c.cell_type == "markdown": c.source = relink(c.source, p.stem)
            if c.cell_type != "code": continue
            lines = c.source.split("\n")
            directives = [l for l in lines if l.startswith("#|")]
            c.source = "\n".join(l for l in lines if not l.startswith("#|")).strip("\n")
            if any("echo: false" in d for d in directives):
                c.metadata.setdefault("tags", []).append("remove-input")
            if (p.stem[:1] == "5" and any(re.match(r"#\|\s*export", d) for d in directives)
                and c.source.count("\n") >= 24
                    or any(re.match(r"#\|\s*code-fold:\s*true", d) for d in directives)):
                # experiments' long machinery: collapsed, a click shows it
                c.metadata.setdefault("tags", []).append("hide-input")
            if any(re.match(r"#\|\s*eval:\s*false", d) for d in directives):
                c.metadata.setdefault("tags", []).append("skip-execution")  # e.g. training cells: shown, not re-run
            for o in c.get("outputs", []):
                md = o.get("data", {}).get("text/markdown")
                if md is not None:
                    md = md if isinstance(md, str) else "".join(md)
                    md = "\n".join(l for l in md.split("\n") if l.strip() != "---")
                    o["data"]["text/markdown"] = relink(source_line(md), p.stem)
        nbformat.validator.normalize(nb)
        nbformat.write(nb, p)

def source_line(md):
    """nbdev gives `show_doc(module.f)` (the module named, so that a name several experiments define is documented from
    its own module) a source link without its line, `...py#LNone`: put in the line of `def f` in that file."""
    m = re.search(r"blob/main/(normxlogit/[\w/]+\.py)#LNone", md)
    name = re.search(r"^#+ (\w+)", md[m.end():], re.M) if m else None
    if name is None: return md
    defs = {n.name: n.lineno for n in ast.parse((ROOT / m.group(1)).read_text()).body if hasattr(n, "name")}
    return md.replace("#LNone", f"#L{defs[name.group(1)]}" if name.group(1) in defs else "", 1)

HOST = "https://normxlogit.github.io/normxlogit/"
LINK = re.compile(r"\[([^\]]*)\]\((?:" + re.escape(HOST) + r"|nbs/)?([\w.-]+?)\.(html|ipynb)(#[^)\s]*)?\)")

def short(stem):
    "The page name nbdev and Quarto give a notebook: its number prefix dropped (`04_core` -> `core`)."
    return re.sub(r"^\d+[a-z]?_", "", stem)

def documented():
    "{page stem: the names it documents}, from nbdev's index of the package (`normxlogit/_modidx.py`)."
    scope = {}
    exec((ROOT / "normxlogit" / "_modidx.py").read_text(), scope)
    out = {}
    for syms in scope["d"]["syms"].values():
        for url, _ in syms.values():
            page, _, name = url.partition(".html#")
            out.setdefault(page, set()).add(name)
    return out

def linker(stems):
    """Rewrite nbdev's doc links (`core.html#explain`, `04_core.ipynb#explain`, the hosted URL) and
    the README's links to chapters (`nbs/51_experiment1.ipynb#table-1`) into links to the book's
    own pages (`04_core.html#explain`), with the anchor spelled as Sphinx spells section ids.
    nbdev resolves a name by itself, so a name that several experiments define (`reproduce`,
    `work`, `cost_rows`) would lead to one of them from every page: `relink(text, here)` sends it
    to the page `here` when that page documents it, else to its companion chapter (`56` and `56a`)."""
    from docutils.nodes import make_id
    names = {short(s): s for s in stems} | {s: s for s in stems}
    docs = {s: documented().get(short(s), set()) for s in stems}
    number = lambda s: re.match(r"\d*", s).group(0)
    def owner(here, anchor):
        if here is None or not number(here): return None
        mates = [here] + sorted(s for s in stems if s != here and number(s) == number(here))
        return next((s for s in mates if anchor in docs.get(s, ())), None)
    def sub(m, here=None):
        text, page, anchor = m.group(1), names.get(m.group(2)), (m.group(4) or "#")[1:]
        if page is None: return m.group(0)
        page = owner(here, anchor) or page
        # a private helper: documented nowhere, so shown as code only
        if anchor.startswith(("_", "-")): return text
        if "." in anchor: FALLBACK[f"{page}.html#{make_id(anchor)}"] = make_id(anchor.split(".")[0])   # Class.method
        return f"[{text}]({page}.html" + (f"#{make_id(anchor)}" if anchor else "") + ")"
    return lambda text, here=None: LINK.sub(lambda m: sub(m, here), re.sub(r"\{target=[^}]*\}", "", text))

FALLBACK = {}   # "page.html#class-method" -> "class", filled by `linker`

def fix_anchors(html):
    """After the build: a link to a class method (`04_core.html#explanation-to-words`) that has no section of its own
    goes to its class's section (`#explanation`). Links that still miss are left for `tools/check_book.py` to report."""
    ids = {}
    def anchors(page):
        if page not in ids:
            ids[page] = set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8"))) if page.exists() else set()
        return ids[page]
    def sub(m, here):
        # MyST keeps a link to another page's .html as a local anchor
        href = re.sub(r"^#(?=[\w.-]+\.html)", "", m.group(1))
        path, _, frag = href.partition("#")
        page = here.parent / path if path else here
        if not frag or path.startswith(("http:", "https:")) or frag in anchors(page): return f'href="{href}"'
        alt = FALLBACK.get(f"{page.name}#{frag}")
        return f'href="{path}#{alt}"' if alt in anchors(page) else f'href="{href}"'
    for page in html.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = re.sub(r'href="([^"]*#[^"]*)"', lambda m: sub(m, page), text)
        if new != text: page.write_text(new, encoding="utf-8")

def sections():
    "[(caption, [notebook stems])] in reading order, from nbs/sidebar.yml (the one place the order is written)."
    import yaml
    side = yaml.safe_load((ROOT / "nbs" / "sidebar.yml").read_text())["website"]["sidebar"]["contents"]
    return [(s["section"], [Path(n).stem for n in s["contents"]]) for s in side if isinstance(s, dict)]

def toc():
    have = {p.stem for p in PROC.glob("*.ipynb")}
    parts = [(cap, [n for n in nbs if n in have]) for cap, nbs in sections()]
    listed = {n for _, nbs in parts for n in nbs}
    missing = sorted(n for n in have - listed - {"index"})
    if missing: sys.exit(f"notebooks missing from nbs/sidebar.yml: {missing}")
    parts = [(cap, nbs) for cap, nbs in parts if nbs]
    lines = ["format: jb-book", "root: index"] + (["parts:"] if parts else [])
    for cap, nbs in parts:
        lines += [f"- caption: {json.dumps(cap)}", "  chapters:"] + [f"  - file: {n}" for n in nbs]
    (PROC / "_toc.yml").write_text("\n".join(lines) + "\n")

def mathjax():
    "Local copy of MathJax 3 (offline rendering of LaTeX)."
    cache = ROOT / ".cache" / "mathjax"
    js = cache / "node_modules" / "mathjax" / "es5"
    if not (js / "tex-chtml-full.js").exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix",
                        str(cache), "mathjax@3.2.2"], check=True)
    # outside _static: Jupyter Book would add every .js found there as a <script>
    shutil.copytree(js, PROC / "_extra" / "mathjax", dirs_exist_ok=True)

def config(execute):
    cfg = f"""title: normxlogit
author: normxlogit developers
copyright: "2026"
only_build_toc_files: true
execute:
  execute_notebooks: {execute}
  timeout: 1800
  allow_errors: false
  exclude_patterns: []
html:
  use_repository_button: false
  home_page_in_navbar: true
parse:
  myst_enable_extensions: [dollarmath, amsmath, colon_fence, html_image]
sphinx:
  config:
    mathjax_path: ../mathjax/tex-chtml-full.js
    html_extra_path: [_extra]
    nb_execution_show_tb: true
    nb_render_markdown_format: myst       # outputs (show_doc, tables) as MyST: pipe tables and $math$ render
    myst_heading_anchors: 4               # (Jupyter Book 1 passes only the extensions from `parse:`)
    myst_dmath_double_inline: true        # $$...$$ inside a paragraph is display math, as in Quarto/pandoc
    suppress_warnings: [mystnb.unknown_mime_type, myst.header]
"""
    (PROC / "_config.yml").write_text(cfg)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--execute", default="off", choices=["off", "all"],
                    help="'all': run every notebook first (regenerates every figure and table); 'off': stored outputs")
    ap.add_argument("--only", default="", help="regex of notebook names to include (development)")
    a = ap.parse_args()
    path = execute_copy() if a.execute == "all" else ROOT / "nbs"
    proc(a.only, path); adapt(); toc(); mathjax(); config("off")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    jb = Path(sys.executable).parent / "jupyter-book"
    r = subprocess.run([str(jb), "build", str(PROC), "--path-output", str(BUILD), "--keep-going"], env=env)
    index = BUILD / "_build" / "html" / "index.html"
    if r.returncode or not index.exists(): sys.exit(f"book build failed ({r.returncode})")
    fix_anchors(index.parent)
    link = BUILD / "html"
    if link.is_symlink() or link.exists():
        if link.is_symlink() or link.is_file(): link.unlink()
        else: shutil.rmtree(link)
    link.symlink_to(BUILD / "_build" / "html")
    print(f"built {index}")

if __name__ == "__main__": main()
