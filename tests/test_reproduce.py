"""Every experiment reproduces at the tiny scale through the one skeleton
(`normxlogit.experiments.common.reproduce`): its result files appear, a second run computes nothing
and rewrites them byte for byte, and (where an experiment keeps per-run files) a run whose file is
gone resumes from its chunks. The experiments' own commands resume and reject bad input with one clear
line. (`test_reproduce_tiny_clean.py` runs the user's `reproduce all --scale tiny` in a fresh clone.)"""
import gzip, os, subprocess, sys
from pathlib import Path
import pandas as pd
import pytest
from conftest import ROOT

BIN = Path(sys.executable).parent
# per experiment: the files the tiny run must write (relative to its results folder)
FILES = {
    "agreement": ["table1.csv", "items/tiny-llama_sva_2.csv.gz", "items/tiny-llama_sva_2.json",
                  "items/tiny-bert_ra_2.csv.gz",
                  "items/tiny-bert_qa_1.json", "costs.csv"],
    "blimp": ["alignment_tiny.csv", "alignment_tiny_items.csv", "alignment_tiny_claims.csv", "alignment_tiny.json",
              "costs.csv"],
    "efficiency": ["time.csv", "memory.csv", "costs.csv"],
    "experiment1": ["table1.csv", "orderings.csv", "ig_convergence.csv", "runs.csv", "costs.csv"],
    "generation": ["faithfulness.csv", "costs.csv"],
    "pruning": ["pruning.csv", "pruning_items.csv.gz", "pruning_findings.csv", "pruning_tiny-llama_sva.json",
                "costs.csv"],
    "sanity": ["randomisation.csv", "factors.csv", "skipped.csv", "runs.json", "items/tiny-bert.csv.gz", "costs.csv"],
}
APPENDED = {"runs.csv"}        # experiment1's log of runs gains a row per call, by design


def _reproduce(name, tmp):
    from normxlogit.experiments.common import reproduce
    return reproduce([name], scale="tiny", device="cpu", results=tmp, cache=tmp / "chunks",
                     chapters=False, out=lambda *a: None)[name]


def _contents(tmp):
    read = lambda p: gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
    return {str(p.relative_to(tmp)): read(p) for p in sorted(tmp.rglob("*"))
            if p.is_file() and "chunks" not in p.relative_to(tmp).parts and p.name not in APPENDED}


@pytest.mark.parametrize("name", sorted(FILES))
def test_reproduce_tiny_twice(tmp_path, name):
    first = _reproduce(name, tmp_path)
    assert first["computed"] > 0, first
    missing = [f for f in FILES[name] if not (tmp_path / f).exists()]
    assert not missing, (missing, sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())[:50])
    before = _contents(tmp_path)
    again = _reproduce(name, tmp_path)
    assert again["computed"] == 0, again                                   # finished: nothing computed again
    assert _contents(tmp_path) == before                                   # the same results, byte for byte


def test_experiment_specific_results(tmp_path):
    "What the shared test does not see: columns and values that only one experiment has."
    from normxlogit.experiments.experiment1 import plan, result_file
    first = _reproduce("experiment1", tmp_path)
    assert first["computed"] == first["cells"] == len(plan("tiny")) and first["cpu_s"] > 0
    o = pd.read_csv(tmp_path / "orderings.csv")
    assert list(o.columns) == ["model", "task", "metric", "baseline", "paper_says", "advantage", "lo", "hi", "p",
                               "p_holm", "outcome", "n"]
    assert set(o.outcome) <= {"reproduced", "reversed", "inconclusive",
                              "no claim", "not evaluable"} and (o.lo <= o.hi).all()
    ig = pd.read_csv(result_file("minilm-sst2", "sst2", "ig", results=tmp_path))
    assert {"completeness_gap", "converged"} <= set(ig.columns)             # every IG row carries its completeness
    f = result_file("minilm-sst2", "sst2", "logat", results=tmp_path)
    before = pd.read_csv(f); f.unlink()                                      # one file gone, its chunks kept
    assert _reproduce("experiment1", tmp_path)["computed"] == 1
    runs = pd.read_csv(tmp_path / "runs.csv")
    # resumed from the chunks: nothing explained again
    assert runs.iloc[-1].chunks_found == runs.iloc[-1].chunks
    pd.testing.assert_frame_equal(pd.read_csv(f), before)
    e = tmp_path / "eff"
    _reproduce("efficiency", e)
    t = pd.read_csv(e / "time.csv")
    assert (
        set(t.model) == {"tiny-bert-classification", "tiny-llama"}
        and t.run_cpu_s.notna().all()
        and t.load_avg_end.notna().all()
    )
    assert t.groupby(["model", "length"]).run_id.nunique().eq(1).all()     # one run per model and length
    s = tmp_path / "san"
    _reproduce("sanity", s)
    assert set(pd.read_csv(s / "randomisation.csv").test) == {"cascade", "independent", "random_target"}


def _cli(tmp, name, *args):
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", NORMXLOGIT_CACHE=str(tmp / "cache"))
    return subprocess.run([str(BIN / "normxlogit"), "experiment", name, *args], cwd=ROOT, capture_output=True,
                          text=True,
                          env=env, timeout=600)


def test_blimp_command_resumes_from_its_chunks(tmp_path):
    out, chunks = tmp_path / "results", tmp_path / "chunks"
    args = ["run", "--scale", "tiny", "--results", str(out), "--cache", str(chunks),
            "--threads", "1", "--device", "cpu"]
    r = _cli(tmp_path, "blimp", *args)
    assert r.returncode == 0, r.stderr[-2000:]
    first = pd.read_csv(out / "alignment_tiny.csv")
    assert len(first) and set(first.model) == {"bert-tiny-mlm"} and first.value.notna().all()
    assert any(chunks.rglob("chunk-*.npz")) and "chunks computed now" in r.stdout
    for f in out.iterdir(): f.unlink()                                      # results gone, chunks kept: a resumed run
    r = _cli(tmp_path, "blimp", *args)
    done = [l for l in r.stdout.splitlines() if "chunks computed now" in l]
    assert r.returncode == 0 and done and all(", 0 of " in l for l in done), r.stdout + r.stderr[-2000:]
    pd.testing.assert_frame_equal(pd.read_csv(out / "alignment_tiny.csv"), first)


def test_experiment1_command_skips_a_finished_run(tmp_path):
    args = ["run", "minilm-sst2", "sst2", "2", "--methods", "random", "--results", str(tmp_path)]
    r = _cli(tmp_path, "experiment1", *args)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "minilm-sst2_sst2_random.csv.gz").exists() and not any(tmp_path.glob("chunks/faith-*"))
    r = _cli(tmp_path, "experiment1", *args)
    assert r.returncode == 0 and "is done (2 items)" in r.stdout, r.stdout + r.stderr[-2000:]


@pytest.mark.parametrize("name, args, needle", [
    ("experiment1", ["run", "nomodel-sst2", "sst2", "2"], "unknown model family 'nomodel'"),
    ("experiment1", ["run", "minilm-sst2", "sst2", "100000"], "has 872 held-out items"),
    ("experiment1", ["status", "--scale", "huge"], "invalid choice"),
    ("blimp", ["run", "--models", "no-such-model"], "unknown model 'no-such-model'"),
    ("blimp", ["run", "--threads", "0"], "--threads must be at least 1"),
    ("experiment1", ["run", "minilm-sst2", "sst2", "2", "--methods", ","], "--methods: expected one or more values"),
    ("generation", ["run", "--ks", ""], "--ks: expected one or more values"),
    ("efficiency", ["time", "--model", "tiny-bert", "--lengths", "16,x"], "--lengths: not a list of int")])
def test_experiment_command_bad_input_is_a_clear_error(tmp_path, name, args, needle):
    r = _cli(tmp_path, name, *args)
    assert r.returncode != 0 and needle in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]


def test_one_scale_shape():
    """Every experiment declares its scales in one shape (issue 37): tiny, book and paper, each a list of `ScaleRun`s
    naming a model `load_model` resolves; the command `scales` prints them; no experiment keeps a shape of its own."""
    import re
    from normxlogit.experiments.common import load_experiments, ScaleRun, SCALES
    from normxlogit.model.zoo import tiny_arch, OFFLINE_MODELS
    from normxlogit.model.finetune import RECIPES
    exps = load_experiments()
    assert set(exps) == set(FILES)
    known = set(OFFLINE_MODELS) | set(RECIPES) | {"textattack/bert-base-uncased-SST-2"}   # installed, trained here, hub
    for name, e in exps.items():
        assert tuple(e.scales) == SCALES, name
        runs = [r for rs in e.scales.values() for r in rs]
        assert runs and all(isinstance(r, ScaleRun) for r in runs), name
        unknown = {r.model for r in runs if tiny_arch(r.model) is None and r.model not in known}
        assert not unknown, (name, unknown)
        out = subprocess.run([str(BIN / "normxlogit"), "experiment", name, "scales"], capture_output=True, text=True)
        assert out.returncode == 0 and all(s in out.stdout for s in SCALES), (name, out.stderr)
    old = re.compile(r"^(PRUNING_SCALES|SIZES|PLANNED_N|ABLATION_RUNS|TINY) = ", re.M)
    src = {p.name: old.findall(p.read_text()) for p in (ROOT / "normxlogit" / "experiments").glob("*.py")}
    assert not any(src.values()), src


def test_one_cost_record():
    """One cost record and one estimate (issue 37): every experiment declares its `work` and no estimate of its own;
    its committed `costs.csv` has the one shape, and the book's scale is priced from it at every step."""
    import importlib
    from normxlogit.experiments import common
    for name, e in common.load_experiments().items():
        mod = importlib.import_module(f"normxlogit.experiments.{name}")
        assert e.work is not None and getattr(mod, "estimate", common.estimate) is common.estimate, name
        rec = pd.read_csv(common.costs_path(e.costs or name))
        assert list(rec.columns) == common.COST_COLUMNS and name in set(rec.experiment), name
        book = common.estimate(name, "book")
        assert book.cpu_s_per_unit.iloc[:-1].notna().all() and book.step.iloc[-1] == "total", (name, book)
