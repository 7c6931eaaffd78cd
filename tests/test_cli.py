"The `normxlogit` command works offline on the real models."
import sys
from pathlib import Path
from conftest import run

EXE = Path(sys.executable).parent / "normxlogit"

def test_explain_smollm2():
    out = run(EXE, "explain", "--model", "smollm2-135m", "The capital of France is").stdout
    assert "prediction ' Paris'" in out and "France" in out

def test_explain_minilm_classifier():
    out = run(EXE, "explain", "--model", "minilm-l6", "--head", "classification", "--method", "logat",
              "--target", "1", "a gripping, beautifully acted film").stdout
    assert "gripping" in out and "[CLS]" in out

def test_explain_finetuned_minilm_sst2():
    out = run(EXE, "explain", "--model", "minilm-sst2", "--method", "attnlrp",
              "a gripping, beautifully acted film").stdout
    assert "prediction 'positive'" in out and "beautifully" in out

def test_layerwise_csv():
    out = run(EXE, "explain", "--model", "bert-tiny-mlm", "--layer", "all", "--format", "csv",
              "the cat [MASK] on the mat").stdout.splitlines()
    assert out[0].startswith("target,layer,position,token,score") and len(out) == 1 + 2 * 8

def test_bad_input_is_an_error():
    r = run(EXE, "explain", "--model", "bert-tiny-mlm", "no mask token here", check=False)
    assert r.returncode == 2 and "mask token" in r.stderr
    r = run(EXE, "explain", "--model", "bert-tiny-mlm", "--method", "nope", "a [MASK]", check=False)
    assert r.returncode == 2 and "unknown method" in r.stderr.lower()

def test_explain_readable_tokens():
    """A byte-level BPE (SmolLM2) and an uncased WordPiece (MiniLM)
    print the text their tokens stand for, never `ĠcafÃ©`."""
    import io
    import pandas as pd
    from normxlogit.testing import check_readable, MULTILINGUAL, MOJIBAKE
    table = run(EXE, "explain", "--model", "smollm2-135m", MULTILINGUAL).stdout
    assert "café" in table and "ü" in table and not any(c in table for c in MOJIBAKE)
    for model, extra in (("smollm2-135m", ()),
                         ("minilm-l6", ("--head", "classification", "--method", "logat", "--target", "1"))):
        csv = run(EXE, "explain", "--model", model, *extra, "--format", "csv", MULTILINGUAL).stdout
        df = pd.read_csv(io.StringIO(csv), keep_default_na=False)
        assert list(df.columns)[-1] == "piece" and (df.token != df.piece).any()
        check_readable(df.token, MULTILINGUAL, drop=["[CLS]", "[SEP]"])

def test_generation_html(tmp_path):
    """`explain --generate --format html --out FILE` writes a page
    that shows the prompt and the generated tokens as text."""
    import html
    from normxlogit import load_explanations
    from normxlogit.plot import token_label
    from normxlogit.testing import MOJIBAKE
    page, saved = tmp_path / "reply.html", tmp_path / "reply.json"
    r = run(EXE, "explain", "--model", "smollm2-135m", "--chat", "--generate", "6", "--format", "html", "--out", page,
            "--save", saved, "Où est le café ? Réponds en français.")
    assert r.stdout.strip() == f"wrote {page}" and page.exists()
    text, g = page.read_text(encoding="utf-8"), load_explanations(saved)
    assert text.startswith("<!DOCTYPE html>") and "normxlogit-generation" in text and "normxlogit-legend" in text
    assert "Où est le café ? Réponds en français." in text and html.escape(g.generated_text) in text
    # the columns: the generated tokens
    assert all(f">{html.escape(token_label(t))}</th>" in text for t in g.target_texts)
    assert not [c for c in MOJIBAKE if c in text and c not in g.generated_text]
