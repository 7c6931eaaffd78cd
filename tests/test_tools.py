"""The tools that keep long runs alive across sessions: `tools/commit_while.sh`
(commits finished chunks while a run goes on, and when it stops) and the BLiMP
experiment's command line (resumes from its chunk cache, refuses bad input)."""
import os, shutil, signal, subprocess, sys, time
import pandas as pd
import pytest
from conftest import ROOT

PY = sys.executable


def _git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path):
    "A scratch git repository with a copy of commit_while.sh and one tracked file."
    r = tmp_path / "repo"; (r / "tools").mkdir(parents=True)
    shutil.copy(ROOT / "tools" / "commit_while.sh", r / "tools")
    _git(r, "init", "-q"); _git(r, "config", "user.email", "t@example.org"); _git(r, "config", "user.name", "t")
    (r / "other.txt").write_text("v1\n"); _git(r, "add", "."); _git(r, "commit", "-q", "-m", "start")
    (r / "other.txt").write_text("v2, not to be committed by the tool\n")
    return r


# c1, then wait until the tool has committed it (a partial commit), then c2 and c3 and exit: no timing race
WRITER = ('echo 1 > results/x/c1.csv; until git log --format=%s | grep -q "partial, [0-9]"; do sleep 0.2; done; '
          'echo 2 > results/x/c2.csv; echo 3 > results/x/c3.csv; exit {rc}')
STOPPED = "echo 1 > results/x/c1.csv; sleep 60; echo 3 > results/x/c3.csv"


def test_commit_while_commits_chunks_and_keeps_the_exit_status(repo):
    r = subprocess.run(["bash", "tools/commit_while.sh", "chunks", "results/x", "--", "bash",
                        "-c", WRITER.format(rc=3)],
                       cwd=repo, capture_output=True, text=True, env=dict(os.environ, EVERY="1"))
    assert r.returncode == 3, r.stderr                                   # the command's status, not the tool's
    log = _git(repo, "log", "--format=%s").splitlines()
    assert any(s.startswith("chunks (partial, ") and "exit" not in s for s in log), log   # committed while running
    assert log[0].startswith("chunks (partial, exit 3"), log                               # and once at the end
    assert _git(repo, "show", "--name-only", "--format=", "HEAD~1").split() == ["results/x/c1.csv"]
    assert sorted(_git(repo, "ls-files", "results").split()) == [f"results/x/c{i}.csv" for i in (1, 2, 3)]
    assert "other.txt" in _git(repo, "status", "--porcelain")            # nothing outside its paths is committed


def test_commit_while_commits_what_is_done_when_stopped(repo):
    p = subprocess.Popen(["bash", "tools/commit_while.sh", "chunks", "results/x", "--", "bash", "-c", STOPPED],
                         cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, EVERY="600"), start_new_session=True)
    for _ in range(100):
        if (repo / "results/x/c1.csv").exists(): break
        time.sleep(0.1)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)                                          # the end of a session
    assert p.wait(timeout=30) == 130
    assert time.monotonic() - t0 < 4, "the signal must be handled at once, not after the tool's sleep"
    assert "results/x/c1.csv" in _git(repo, "ls-files", "results")
    assert not (repo / "results/x/c3.csv").exists()                       # the command was stopped, not waited for
    assert _git(repo, "log", "-1", "--format=%s").startswith("chunks (partial, ")


def test_commit_while_usage_errors(repo):
    for argv in (["label", "results/x"], ["label", "--", "true"]):
        r = subprocess.run(["bash", "tools/commit_while.sh", *argv], cwd=repo, capture_output=True, text=True)
        assert r.returncode == 2 and "commit_while.sh" in r.stderr


def _agreement_env(tmp):
    return dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", TASKS="sva", NXL_PYTHON=PY,
                NXL_MODELS_1="minilm-agreement-mlm", NXL_MODELS_2="smollm2-135m", NXL_CACHE=str(tmp / "chunks"),
                NXL_LOGS=str(tmp / "logs"),
                NORMXLOGIT_RESULTS=str(tmp / "results"), NORMXLOGIT_CACHE=str(tmp / "cache"))


AGREEMENT_ARGS = ["--n", "sva=3", "--pool", "sva=20", "--methods", "random", "grad_l2", "gxi",
                  "logat", "--variants", "base"]


def test_agreement_script_resumes_after_a_kill(tmp_path):
    """tools/agreement.sh stopped mid-run (the end of a session) exits 130
    and stops both runs; run again, it recomputes no finished chunk."""
    env, chunks = _agreement_env(tmp_path), tmp_path / "chunks"
    done = lambda: sorted(p for p in chunks.rglob("chunk-*.npz") if not p.parent.name.startswith("pool-"))
    p = subprocess.Popen(["bash", "tools/agreement.sh", *AGREEMENT_ARGS], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 600
    while not done() and p.poll() is None and time.monotonic() < deadline: time.sleep(0.2)
    assert done(), (p.poll(), *(f.read_text()[-2000:] for f in sorted((tmp_path / "logs").glob("*.log"))))
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=60) == 130
    time.sleep(1)
    assert subprocess.run(["pgrep", "-f", str(chunks)], capture_output=True).returncode == 1   # no run left behind
    table = tmp_path / "results" / "agreement" / "table1.csv"
    assert not table.exists()                                             # the runs leave it to the final `table`
    before = {f: f.stat().st_mtime_ns for f in done()}
    n_methods = 4
    assert 0 < len(before) < 2 * n_methods                                 # stopped mid-run
    r = subprocess.run(["bash", "tools/agreement.sh", *AGREEMENT_ARGS], cwd=ROOT, env=env, capture_output=True,
                       text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    assert all(f.stat().st_mtime_ns == t for f, t in before.items())      # finished chunks are read, not recomputed
    assert len(done()) == 2 * n_methods                                    # 2 models x 4 methods x 1 chunk of 3 items
    t1 = pd.read_csv(table)
    assert set(t1.model) == {"minilm-agreement-mlm", "smollm2-135m"} and set(t1.task) == {"sva"}
    # 3 scored items (the model rows count the examined ones)
    assert (t1[t1.method != "model"].n == 3).all()
    assert set(t1.method) == {"model", "random", "grad_l2", "gxi", "logat"}


def test_agreement_script_passes_a_failure_on(tmp_path):
    r = subprocess.run(["bash", "tools/agreement.sh", "--n", "sva=two"], cwd=ROOT, env=_agreement_env(tmp_path),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "a run failed" in r.stderr
    for log in ("agreement-1.log", "agreement-2.log"):
        text = (tmp_path / "logs" / log).read_text()
        assert "--n: 'sva=two' is not task=<whole number> or task=all" in text and "Traceback" not in text, text[-2000:]


def _pruning_env(tmp_path, **extra):
    return dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", NXL_PYTHON=PY,
                NXL_CACHE=str(tmp_path / "chunks"),
                NXL_LOGS=str(tmp_path / "logs"), NORMXLOGIT_CACHE=str(tmp_path / "cache"), **extra)


def test_pruning_script_passes_a_failure_on(tmp_path):
    """A failing run stops the script with its exit status before
    the next task starts; a bad task name fails before any run."""
    r = subprocess.run(["bash", "tools/pruning.sh", "--n", "two"], cwd=ROOT, env=_pruning_env(tmp_path),
                       capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2 and "a sva run failed" in r.stderr, r.stderr
    assert "invalid int value: 'two'" in (tmp_path / "logs" / "pruning-sva.log").read_text()
    assert not (tmp_path / "logs" / "pruning-ra.log").exists()
    r = subprocess.run(["bash", "tools/pruning.sh"], cwd=ROOT, env=_pruning_env(tmp_path / "b", NXL_TASKS="sva rx"),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "unknown task rx" in r.stderr and not (tmp_path / "b" / "logs").exists()


def test_pruning_script_stops_every_run_when_killed(tmp_path):
    """tools/pruning.sh runs each task in two processes (one with --reverse):
    a stop must end both, and the tasks not yet begun never start."""
    env = _pruning_env(tmp_path)
    args = ["--n", "2", "--n-pool", "20", "--max-pruned", "10", "--n-random", "1", "--methods", "gxi", "--poolings",
            "relu_token", "--results", str(tmp_path / "res")]
    p = subprocess.Popen(["bash", "tools/pruning.sh", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    mine = lambda: subprocess.run(["pgrep", "-f", str(tmp_path / "chunks")],
                                  capture_output=True, text=True).stdout.split()
    deadline = time.monotonic() + 300
    while len(mine()) < 2 and p.poll() is None and time.monotonic() < deadline: time.sleep(0.2)
    # both runs of sva (forward and reverse) started
    assert len(mine()) == 2, (p.poll(), mine())
    p.send_signal(signal.SIGTERM)
    assert p.wait(timeout=60) == 130
    for _ in range(100):
        if not mine(): break
        time.sleep(0.2)
    assert not mine(), "a pruning run outlived the script"
    assert not (tmp_path / "logs" / "pruning-ra.log").exists()            # the next task was not started
    assert not (tmp_path / "res" / "pruning.csv").exists()
