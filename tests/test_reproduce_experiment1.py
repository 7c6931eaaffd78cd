"""Experiment 1 (faithfulness, Tables 1 and 3) reproduces at the tiny scale (MiniLM, a few items): `normxlogit reproduce`
writes the per-run files and the tables, a second call computes nothing, and a run whose file is gone resumes from its
chunks; the experiment's own command skips a finished run and rejects bad input clearly."""
import os, subprocess, sys
from pathlib import Path
import pandas as pd
import pytest
from conftest import ROOT

BIN = Path(sys.executable).parent
OUTCOMES = {"reproduced", "reversed", "inconclusive", "no claim", "not evaluable"}


def test_reproduce_experiment1_tiny(tmp_path):
    from normxlogit.experiments.common import reproduce
    from normxlogit.experiments.experiment1 import plan, result_file
    kw = dict(scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks", chapters=False, out=lambda *a: None)
    first = reproduce(["experiment1"], **kw)["experiment1"]
    p = plan("tiny")
    assert first["computed"] == first["cells"] == len(p) and first["cpu_s"] > 0
    assert all(result_file(r.model, r.task, r.method, results=tmp_path).exists() for r in p.itertuples())
    for name in ("table1.csv", "orderings.csv", "ig_convergence.csv", "runs.csv"): assert (tmp_path / name).exists(), name
    o = pd.read_csv(tmp_path / "orderings.csv")
    assert list(o.columns) == ["model", "task", "metric", "baseline", "paper_says", "advantage", "lo", "hi", "p", "p_holm", "outcome", "n"]
    assert set(o.outcome) <= OUTCOMES and (o.n == 3).all() and (o.lo <= o.hi).all() and o.p.between(0, 1).all()
    ig = pd.read_csv(result_file("minilm-sst2", "sst2", "ig", results=tmp_path))
    assert {"completeness_gap", "converged"} <= set(ig.columns)                         # every IG row carries its completeness
    assert reproduce(["experiment1"], **kw)["experiment1"]["computed"] == 0            # finished: nothing to compute
    f = result_file("minilm-sst2", "sst2", "logat", results=tmp_path)
    before = pd.read_csv(f); f.unlink()                                                  # one file gone, its chunks kept
    again = reproduce(["experiment1"], **kw)["experiment1"]
    assert again["computed"] == 1
    runs = pd.read_csv(tmp_path / "runs.csv")
    assert runs.iloc[-1].chunks_found == runs.iloc[-1].chunks                          # resumed from the chunks: nothing explained again
    pd.testing.assert_frame_equal(pd.read_csv(f), before)


def _cli(*args):
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    return subprocess.run([str(BIN / "normxlogit"), "experiment", "experiment1", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=600)


def test_experiment1_command_skips_a_finished_run(tmp_path):
    args = ["run", "minilm-sst2", "sst2", "2", "--methods", "random", "--outdir", str(tmp_path)]
    r = _cli(*args)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "minilm-sst2_sst2_random.csv.gz").exists() and not any(tmp_path.glob("chunks/faith-*"))   # chunks of a finished run removed
    r = _cli(*args)
    assert r.returncode == 0 and "is done (2 items)" in r.stdout, r.stdout + r.stderr[-2000:]


@pytest.mark.parametrize("args, needle", [(["run", "nomodel-sst2", "sst2", "2"], "unknown model family 'nomodel'"),
                                          (["run", "minilm-sst2", "sst2", "100000"], "has 872 held-out items"),
                                          (["status", "--scale", "huge"], "invalid choice")])
def test_experiment1_command_bad_input_is_a_clear_error(tmp_path, args, needle):
    r = _cli(*args)
    assert r.returncode != 0 and needle in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]
