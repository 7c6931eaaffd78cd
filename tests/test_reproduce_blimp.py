"""The BLiMP alignment experiment reproduces at the tiny scale (bert-tiny on a few items): `normxlogit reproduce` writes
its result files, and a second call computes nothing; the experiment's own command resumes from its chunks."""
import os, subprocess, sys
from pathlib import Path
import pandas as pd
import pytest
from conftest import ROOT

BIN = Path(sys.executable).parent


def test_reproduce_blimp_tiny(tmp_path):
    from normxlogit.experiments.common import reproduce
    kw = dict(scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks", chapters=False, out=lambda *a: None)
    first = reproduce(["blimp"], **kw)["blimp"]
    names = ("alignment_tiny.csv", "alignment_tiny_items.csv", "alignment_tiny_claims.csv", "alignment_tiny.json")
    assert first["computed"] > 0 and all((tmp_path / n).exists() for n in names)
    claims = pd.read_csv(tmp_path / "alignment_tiny_claims.csv")
    assert {"lo", "hi", "p", "p_holm", "n", "verdict"} <= set(claims.columns) and (claims.n > 0).all()
    assert reproduce(["blimp"], **kw)["blimp"]["computed"] == 0                       # the results are there: read
    (tmp_path / "alignment_tiny.json").unlink()                                          # results gone, chunks kept
    again = reproduce(["blimp"], **kw)["blimp"]
    assert again["computed"] == 0
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "alignment_tiny_claims.csv"), claims)


def _cli(tmp, *args):
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", NORMXLOGIT_CACHE=str(tmp / "cache"))
    return subprocess.run([str(BIN / "normxlogit"), "experiment", "blimp", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=600)


def test_blimp_command_resumes_from_its_chunks(tmp_path):
    out, chunks = tmp_path / "results", tmp_path / "chunks"
    args = ["run", "--scale", "tiny", "--results", str(out), "--cache", str(chunks), "--threads", "1", "--device", "cpu"]
    r = _cli(tmp_path, *args)
    assert r.returncode == 0, r.stderr[-2000:]
    first = pd.read_csv(out / "alignment_tiny.csv")
    assert len(first) and set(first.model) == {"bert-tiny-mlm"} and first.value.notna().all()
    assert any(chunks.rglob("chunk-*.npz")) and "chunks computed now" in r.stdout
    for f in out.iterdir(): f.unlink()                                                   # results gone, chunks kept: a resumed run
    r = _cli(tmp_path, *args)
    assert r.returncode == 0, r.stderr[-2000:]
    done = [l for l in r.stdout.splitlines() if "chunks computed now" in l]
    assert done and all(", 0 of " in l for l in done), r.stdout                         # nothing recomputed
    pd.testing.assert_frame_equal(pd.read_csv(out / "alignment_tiny.csv"), first)


@pytest.mark.parametrize("args, needle", [(["run", "--models", "no-such-model"], "unknown model 'no-such-model'"),
                                          (["run", "--threads", "0"], "--threads must be at least 1")])
def test_blimp_command_bad_input_is_a_clear_error(tmp_path, args, needle):
    r = _cli(tmp_path, *args)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
