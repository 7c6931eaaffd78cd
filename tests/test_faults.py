"""Faults injected for real: killed runs resume to the same result, damaged cache entries are recomputed, two processes
share one cache folder, accelerate splits a run across processes, and `explain` survives arbitrary text."""
import os, signal, subprocess, sys, time
from pathlib import Path
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from conftest import ROOT

PY = sys.executable
# A run of the faithfulness runner on a tiny random BERT: 24 SST-2 items in 12 chunks. The method `slow_l2norm` (the l2
# norm, 0.3 s per chunk) is registered by this script only, so that a test can stop the run at a point of its choosing.
SCRIPT = r'''
import sys, time
import normxlogit
from normxlogit.registry import register_method, get_method
from normxlogit.metrics.faithfulness_run import run_faithfulness
from normxlogit.model.zoo import tiny_model
from normxlogit.evidence.datasets import load_sst2
@register_method("slow_l2norm", description="l2 norm, slowly (fault tests)")
def slow(batch, **kw):
    time.sleep(0.3)
    return get_method("l2norm").fn(batch, **kw)
cache, out = sys.argv[1], sys.argv[2]
m, t = tiny_model("bert")
r = run_faithfulness(["slow_l2norm", "logat"], m, t, load_sst2("dev").iloc[:60], n=24, batch_size=2, ratios=[0.3, 0.7],
                     cache=cache, progress=False)
r.samples.to_csv(out, index=False)
print("found", r.info["chunks_found_done"], "of", r.info["chunks"], flush=True)
'''

def _env():
    return dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")

def _run(tmp, name, cache):
    script = tmp / "run.py"; script.write_text(SCRIPT)
    out = tmp / f"{name}.csv"
    r = subprocess.run([PY, str(script), str(cache), str(out)], capture_output=True, text=True, env=_env(), cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    return out, r.stdout

@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    "The uninterrupted run."
    tmp = tmp_path_factory.mktemp("ref")
    out, log = _run(tmp, "ref", tmp / "cache")
    assert "found 0 of 24" in log
    return out.read_bytes()

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_killed_run_resumes_to_the_same_result(tmp_path, reference, sig):
    cache = tmp_path / "cache"
    script = tmp_path / "run.py"; script.write_text(SCRIPT)
    # A background job of a non-interactive shell inherits SIGINT as ignored, and Python then installs no
    # KeyboardInterrupt handler: restore the default disposition so that SIGINT acts as a user's Ctrl-C wherever the
    # tests are started from.
    p = subprocess.Popen([PY, str(script), str(cache), str(tmp_path / "killed.csv")], env=_env(), cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    chunks = lambda: list(cache.glob("faith-*/chunk-*.npz"))
    deadline = time.time() + 300
    while len(chunks()) < 4:  # stop it after 4 of 24 chunks
        assert p.poll() is None and time.time() < deadline, (
            p.stderr.read().decode()[-2000:] if p.poll() is not None else "timeout"
        )
        time.sleep(0.05)
    p.send_signal(sig); p.wait(timeout=60)
    done = len(chunks())
    assert p.returncode != 0 and 4 <= done < 24 and not (tmp_path / "killed.csv").exists()
    out, log = _run(tmp_path, "resumed", cache)
    assert f"found {done} of 24" in log
    assert out.read_bytes() == reference

def test_damaged_entries_are_recomputed(tmp_path, reference):
    cache = tmp_path / "cache"
    _run(tmp_path, "first", cache)
    entries = sorted(cache.glob("faith-*/chunk-*.npz"))
    entries[0].write_bytes(entries[0].read_bytes()[:200])                  # truncated
    entries[5].write_bytes(b"\x80\x04garbage")  # not an entry at all (a pickle header)
    b = bytearray(entries[9].read_bytes())
    b[len(b) // 2 : len(b) // 2 + 64] = bytes(64)
    entries[9].write_bytes(bytes(b))
    script = tmp_path / "run.py"
    r = subprocess.run([PY, str(script), str(cache), str(tmp_path / "again.csv")], capture_output=True,
                       text=True, env=_env(), cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    warned = [l for l in r.stderr.splitlines() if "normxlogit cache: ignoring unreadable entry" in l]
    assert len(warned) == 3, r.stderr
    assert (tmp_path / "again.csv").read_bytes() == reference
    assert not list(cache.glob("faith-*/.*tmp*"))

def test_two_processes_share_one_cache_folder(tmp_path, reference):
    cache = tmp_path / "cache"
    script = tmp_path / "run.py"; script.write_text(SCRIPT)
    ps = [subprocess.Popen([PY, str(script), str(cache), str(tmp_path / f"p{i}.csv")], env=_env(), cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for i in range(2)]
    for p in ps: assert p.wait(timeout=600) == 0, p.stderr.read().decode()[-2000:]
    assert (tmp_path / "p0.csv").read_bytes() == reference == (tmp_path / "p1.csv").read_bytes()

def test_accelerate_two_processes_write_the_same_csv(tmp_path):
    """`accelerate launch --cpu --num_processes 2` of the command
    gives the CSV of one process (a tiny model saved to disk)."""
    from normxlogit.model.zoo import tiny_model
    m, t = tiny_model("bert"); m.save_pretrained(tmp_path / "tiny"); t.save_pretrained(tmp_path / "tiny")
    args = ["faithfulness", "--model", str(tmp_path / "tiny"), "--task", "sst2", "--methods", "l2norm,logat",
            "--n", "12", "--batch-size", "3", "--ratios", "0.2,0.6", "--no-progress"]
    one = subprocess.run([PY, "-m", "normxlogit.cli", *args, "--out", str(tmp_path / "one.csv"),
                          "--cache", str(tmp_path / "c1")],
                         capture_output=True, text=True, env=_env(), cwd=ROOT)
    assert one.returncode == 0, one.stderr[-2000:]
    acc = Path(PY).parent / "accelerate"
    two = subprocess.run([str(acc), "launch", "--cpu", "--num_processes", "2", "--num_machines", "1",
                          "--mixed_precision", "no",
                          "--dynamo_backend", "no", "-m", "normxlogit.cli", *args, "--out", str(tmp_path / "two.csv"),
                          "--cache", str(tmp_path / "c2")], capture_output=True, text=True, env=_env(), cwd=ROOT)
    assert two.returncode == 0, two.stderr[-3000:]
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "two.csv").read_bytes()
    assert len(pd.read_csv(tmp_path / "two.csv")) == 12 * 2 * 2 * 2

@pytest.mark.parametrize("argv,needle", [
    (["explain", "--model", "surely-no-such-model", "hi"], "cannot load model"),
    (["explain", "--model", "bert-tiny-mlm", "--method", "nope", "a [MASK]"], "unknown method"),
    (["faithfulness", "--model", "minilm-sst2", "--task", "sst2", "--methods", "l2norm",
      "--n", "-3", "--out", "x.csv"], "--n"),
    (["faithfulness", "--model", "minilm-sst2", "--task", "bogus", "--methods", "l2norm", "--out", "x.csv"], "--task")])
def test_cli_user_errors_are_one_line(argv, needle):
    r = subprocess.run([str(Path(PY).parent / "normxlogit"), *argv], capture_output=True,
                       text=True, env=_env(), cwd=ROOT)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr

_MODELS = {}
def _models():
    if not _MODELS:
        from normxlogit.model.zoo import tiny_model
        _MODELS.update(bert=tiny_model("bert"), llama=tiny_model("llama", "causal_lm"))
    return _MODELS

TEXT = st.one_of(st.text(max_size=80),
                 st.text(alphabet=st.characters(categories=["Cc", "Zs", "So", "Lo", "Mn"]), max_size=40),
                 st.builds(lambda s, k: (s + " ") * k, st.text(min_size=1, max_size=12), st.integers(20, 80)))

@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, truncation=st.booleans(), arch=st.sampled_from(["bert", "llama"]),
       method=st.sampled_from(["normxlogit", "gxi"]))
def test_explain_on_arbitrary_text(text, truncation, arch, method):
    "Finite scores of the right shape, or one clear ValueError; never another exception, never NaN."
    from normxlogit import explain
    m, t = _models()[arch]
    try: e = explain(m, t, text, method=method, truncation=truncation)
    except ValueError as err:
        msg = str(err)
        assert msg and ("Empty text" in msg or "accepts at most" in msg), msg
        return
    assert e.scores.shape == (1, 1, len(e.tokens)) and len(e.tokens) >= 1
    assert np.isfinite(e.scores).all()
