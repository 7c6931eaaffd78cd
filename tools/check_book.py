"""Check the rendered book the way a reader meets it: every page of _build/html, after the build.

Fails on what breaks on the page:
- a raw Markdown pipe table shown as text (`| a | b |` / `|:---|`, or the typographer's `|:———|`);
- a link to a file the build does not contain, or to an anchor the target page does not have;
- a formula MathJax rejects (typeset with the book's own MathJax, `tools/check_math.js`), or prose swallowed into a
  formula (mis-paired `$`), or a raw `$` left in the rendered text;
- stderr output, `nan` in a table, an absolute machine path.

    python tools/check_book.py [_build/_build/html]     # prints one line per problem; exit 1 if any
"""
import json, re, subprocess, sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "_build" / "html"
MATHJAX = ROOT / ".cache" / "mathjax" / "node_modules" / "mathjax"
SKIP_PAGES = {"genindex.html", "search.html"}
NO_TEXT = {"script", "style", "pre", "code", "kbd", "samp"}
# a Markdown table's rule row, dashes or typographic dashes
PIPE_RULE = re.compile(r"\|\s*:?[-\u2013\u2014]{2,}:?\s*\|")
PROSE = re.compile(r"(?<![\\a-zA-Z])(?:[a-z]{3,}[,.;]?\s+){3,}[a-z]{3,}")   # four plain words in a row
TEXTCMD = re.compile(r"\\(?:text\w*|mathrm|operatorname\*?|mbox|textrm|textit|textbf|mathit|label)\s*\{[^{}]*\}")
ABS_PATH = re.compile(r"(?<![\w.~])/(?:work|root|home|tmp|usr)/[\w./-]+")

def soup(path):
    from bs4 import BeautifulSoup
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")

def article(doc):
    return doc.find("article") or doc.find("main") or doc

def _in(node, names=NO_TEXT, classes=("math",)):
    for p in node.parents:
        if p.name in names: return True
        if any(c in (p.get("class") or []) for c in classes): return True
    return False

def text_problems(art):
    "Raw pipe tables, raw `$` and absolute paths in the rendered prose and outputs (code and formulas excluded)."
    out = []
    for p in art.find_all(["p", "li", "td", "th"]):
        t = p.get_text(" ")
        if PIPE_RULE.search(t) or re.search(r"^\s*\|.*\|\s*\n\s*\|", t, re.M): out.append(("raw pipe table", t[:80]))
    for s in art.find_all(string=True):
        if _in(s): continue
        if "$" in s and not _in(s, names={"script", "style"}, classes=()): out.append(("raw $ in text", s.strip()[:80]))
    for s in art.find_all(string=True):
        if _in(s, names={"script", "style"}, classes=()): continue
        m = ABS_PATH.search(s)
        if m: out.append(("absolute path", m.group(0)[:80]))
    return out

def output_problems(art):
    out = [("stderr output", d.get_text()[:80].strip()) for d in art.select("div.output.stderr, div.stderr")]
    for td in art.find_all("td"):
        if td.get_text().strip().lower() in {"nan", "<na>", "none"}:
            out.append(("NaN in a table", td.get_text().strip()))
    return out

def formulas(art):
    "(tex, display) of every formula Sphinx emitted, delimiters removed."
    out = []
    for el in art.select(".math"):
        t = el.get_text().strip()
        m = re.fullmatch(r"\\\((.*)\\\)|\\\[(.*)\\\]|\$\$(.*)\$\$", t, re.S)
        if m: out.append((next(g for g in m.groups() if g is not None), el.name == "div"))
    return out

def prose_in_math(tex):
    return PROSE.search(TEXTCMD.sub(" ", tex))

def ids(doc):
    return {t.get("id") for t in doc.find_all(id=True)} | {t.get("name")
                                                           for t in doc.find_all("a", attrs={"name": True})}

def link_problems(page, doc, html, anchors):
    out = []
    for a in doc.find_all("a", href=True):
        href = a["href"]
        u = urlsplit(href)
        if u.scheme or href.startswith(("mailto:", "javascript:")) or not href.strip(): continue
        target = (page.parent / unquote(u.path)).resolve() if u.path else page
        if not target.exists():
            out.append(("link to a missing file", href)); continue
        if u.fragment and target.suffix == ".html":
            if target not in anchors: anchors[target] = ids(soup(target))
            if unquote(u.fragment) not in anchors[target]: out.append(("link to a missing anchor", href))
    return out

def check_math(items):
    "Indices and messages of the formulas MathJax rejects."
    if not items: return []
    r = subprocess.run(["node", str(ROOT / "tools" / "check_math.js"), str(MATHJAX)], input=json.dumps(items),
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)

def check(html=HTML):
    html = Path(html).resolve()
    problems, anchors, maths = [], {}, []
    for page in sorted(html.glob("*.html")):
        if page.name in SKIP_PAGES: continue
        doc = soup(page)
        anchors[page] = ids(doc)
        art = article(doc)
        found = text_problems(art) + output_problems(art) + link_problems(page, doc, html, anchors)
        for tex, disp in formulas(art):
            if prose_in_math(tex): found.append(("prose inside a formula", tex[:80]))
            maths.append((page.name, tex, disp))
        problems += [(page.name, *f) for f in found]
    for i, msg in check_math([[t, d] for _, t, d in maths]):
        problems.append((maths[i][0], f"MathJax error: {msg}", maths[i][1][:80]))
    return problems

def main(argv=sys.argv[1:]):
    problems = check(argv[0] if argv else HTML)
    for page, kind, what in problems: print(f"{page}: {kind}: {what!r}")
    kinds = Counter(k if not k.startswith("MathJax") else "MathJax error" for _, k, _ in problems)
    print(
        f"{len(problems)} problems" + (f" ({', '.join(f'{k}: {n}' for k, n in kinds.most_common())})" if kinds else "")
    )
    return 1 if problems else 0

if __name__ == "__main__": sys.exit(main())
