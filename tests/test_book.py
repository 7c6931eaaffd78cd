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
