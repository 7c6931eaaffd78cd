"""The tiny scale a newcomer tries first runs and leaves the repository untouched: `normxlogit reproduce all --scale
tiny` (chapters included, as the user types it) in a fresh clone, then `git status --porcelain` must be empty."""
import os, subprocess, sys
from conftest import ROOT


def test_reproduce_all_tiny_leaves_the_clone_clean(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", PYTHONPATH=str(clone),
               NORMXLOGIT_CACHE=str(tmp_path / "cache"))
    env.pop("NORMXLOGIT_RESULTS", None)
    r = subprocess.run([sys.executable, "-m", "normxlogit.cli", "reproduce", "all", "--scale",
                        "tiny", "--device", "cpu"],
                       cwd=clone, env=env, capture_output=True, text=True, timeout=3000)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    import normxlogit.experiments.common as common
    for name in common.EXPERIMENT_MODULES:
        assert f"{name}: results into" in r.stdout, f"{name} did not say where its tiny results went"
    scratch = tmp_path / "cache" / "scratch" / "tiny"
    # the runs wrote somewhere: the scratch
    assert sum(1 for _ in scratch.rglob("*") if _.is_file()) > 0
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone, capture_output=True,
                            text=True, check=True).stdout
    assert status == "", f"the tiny run changed the clone:\n{status[:3000]}"


def test_reproduce_generation_book_computes_nothing_and_leaves_the_clone_clean(tmp_path):
    """The book's scale re-run of a finished experiment reads its committed chunks: nothing is computed and no byte
    of the clone changes (a gzip table rewritten with a new time stamp, or chunks looked for elsewhere, would show)."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", PYTHONPATH=str(clone),
               NORMXLOGIT_CACHE=str(tmp_path / "cache"))
    env.pop("NORMXLOGIT_RESULTS", None)
    cmd = ["reproduce", "generation", "--scale", "book", "--device", "cpu", "--no-chapters"]
    r = subprocess.run([sys.executable, "-m", "normxlogit.cli", *cmd], cwd=clone, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert "generation: done (computed 0" in r.stdout, r.stdout[-2000:]
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone, capture_output=True,
                            text=True, check=True).stdout
    assert status == "", f"the book-scale re-run changed the clone:\n{status[:3000]}"
