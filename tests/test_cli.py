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
    out = run(EXE, "explain", "--model", "minilm-sst2", "--method", "attnlrp", "a gripping, beautifully acted film").stdout
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
