"The book builds from the notebooks and its NormXLogit chapter has the formula, a figure, a heatmap and API docs."
import re, sys
from conftest import ROOT, run

def test_book_builds():
    run(sys.executable, "tools/build_book.py", "--execute", "off", timeout=1800)
    html = ROOT / "_build" / "_build" / "html"
    assert (html / "index.html").exists()
    page = (html / "20_normxlogit.html").read_text()
    assert "NormXLogit" in page and r"\mathrm{NormXLogit}" in page            # Eq. 9 in the page (rendered by MathJax)
    assert re.search(r'<img[^>]+src="[^"]+\.png"', page)                      # a matplotlib figure
    assert "normxlogit-heatmap" in page                                        # the HTML token heatmap
    assert (html / "mathjax" / "tex-chtml-full.js").exists() and "../mathjax/tex-chtml-full.js" in page  # offline math
    core = (html / "04_core.html").read_text()
    assert "explain" in core and "Attribute the model" in core                # show_doc rendered the docstring
    toc = (html / "index.html").read_text()
    assert "Head-on-top adapters" in toc
    check_book(html)

def check_book(html):
    """The reader's check on every page (tools/check_book.py): no raw pipe
    table, no link to a missing file or anchor, no formula MathJax rejects, no
    prose swallowed into a formula, no raw `$`, no stderr, NaN or machine path."""
    sys.path.insert(0, str(ROOT / "tools"))
    import check_book as cb
    problems = cb.check(html)
    assert not problems, "\n".join(f"{p}: {k}: {w!r}" for p, k, w in problems[:40]) + f"\n({len(problems)} problems)"

def test_book_check_can_fail(tmp_path):
    "Each rule of the book check fires on a page that breaks it, and a clean page passes."
    sys.path.insert(0, str(ROOT / "tools"))
    import check_book as cb
    page = lambda body: f"<html><body><article>{body}</article></body></html>"
    (tmp_path / "ok.html").write_text(page('<p id="a">fine <span class="math">\\(x^2\\)</span></p><a '
                                           'href="ok.html#a">x</a>'))
    assert cb.check(tmp_path) == []
    bad = {"raw pipe table": "<p>| a | b |\n|:\u2014\u2014|:---|</p>",
           "link to a missing file": '<a href="gone.html">x</a>',
           "link to a missing anchor": '<a href="ok.html#nowhere">x</a>', "raw $ in text": "<p>costs $x$ here</p>",
           "MathJax error": '<span class="math">\\(\\frac{a}{\\)</span>',
           "prose inside a formula": '<span class="math">\\( and then the model is \\)</span>',
           "NaN in a table": "<table><tr><td>nan</td></tr></table>", "absolute path": "<p>see /work/main/results</p>",
           "stderr output": '<div class="output stderr">warning</div>'}
    for kind, body in bad.items():
        (tmp_path / "bad.html").write_text(page(body))
        found = {k.split(":")[0] for p, k, _ in cb.check(tmp_path) if p == "bad.html"}
        assert kind in found, (kind, found)


def test_doc_links_go_to_the_page_that_defines_the_name():
    """nbdev resolves a backticked name by itself, so a name that several experiments define (`work`, `cost_rows`,
    `reproduce`) led from every page to one of them (agreement's); the book's linker sends it to the page itself when
    that page documents the name, else to its companion chapter (56 -> 56a), else where nbdev pointed."""
    sys.path.insert(0, str(ROOT / "tools"))
    import build_book as bb
    stems = [p.stem for p in (ROOT / "nbs").glob("*.ipynb")]
    relink = bb.linker(stems)
    link = f"[`cost_rows`]({bb.HOST}agreement_run.html#cost_rows)"
    assert relink(link, "56a_efficiency_run") == "[`cost_rows`](56a_efficiency_run.html#cost-rows)"
    assert relink(link, "56_efficiency") == "[`cost_rows`](56a_efficiency_run.html#cost-rows)"     # the companion's
    assert relink(link, "53_agreement_benchmark") == relink(link) == "[`cost_rows`](53a_agreement_run.html#cost-rows)"
    core = f"[`explain`]({bb.HOST}core.html#explain)"
    assert relink(core, "56a_efficiency_run") == "[`explain`](04_core.html#explain)"             # one owner: as before

def test_source_links_carry_their_line():
    """`show_doc(module.f)` (how a chapter documents a name that several experiments define) gets from nbdev a source
    link without its line (`#LNone`); the build puts in the line where `f` is defined, as Python's inspect finds it."""
    import inspect
    import normxlogit.experiments.pruning as pruning
    sys.path.insert(0, str(ROOT / "tools"))
    import build_book as bb
    gh = "https://github.com/normxlogit/normxlogit/blob/main/normxlogit/experiments/pruning.py"
    md = f"[source]({gh}#LNone)\n\n### findings_summary\n\n```python\ndef findings_summary(fnd)\n```"
    line = inspect.getsourcelines(pruning.findings_summary)[1]
    assert bb.source_line(md) == md.replace("#LNone", f"#L{line}")
    assert bb.source_line(md.replace("findings_summary", "no_such_name")).count("#L") == 0      # unknown: no anchor
    assert bb.source_line(f"[source]({gh}#L12)\n\n### work") == f"[source]({gh}#L12)\n\n### work"   # left alone
