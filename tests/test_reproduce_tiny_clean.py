"""The tiny scale a newcomer tries first runs and leaves the repository untouched: `normxlogit reproduce all --scale
tiny` (chapters included, as the user types it) in a fresh clone, then `git status --porcelain` must be empty."""
import os, subprocess, sys
from conftest import ROOT


def _fresh_clone(tmp_path):
    "A fresh clone of the repository and the environment a user's run in it gets (its own cache, the clone's results)."
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", PYTHONPATH=str(clone),
               NORMXLOGIT_CACHE=str(tmp_path / "cache"))
    env.pop("NORMXLOGIT_RESULTS", None)
    return clone, env


def _status(clone) -> str:
    "`git status --porcelain` of the clone, untracked files included."
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=clone, capture_output=True,
                          text=True, check=True).stdout


def test_reproduce_all_tiny_leaves_the_clone_clean(tmp_path):
    clone, env = _fresh_clone(tmp_path)
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
    status = _status(clone)
    assert status == "", f"the tiny run changed the clone:\n{status[:3000]}"


def test_reproduce_generation_book_computes_nothing_and_leaves_the_clone_clean(tmp_path):
    """The book's scale re-run of a finished experiment reads its committed chunks: nothing is computed and no byte
    of the clone changes (a gzip table rewritten with a new time stamp, or chunks looked for elsewhere, would show)."""
    clone, env = _fresh_clone(tmp_path)
    cmd = ["reproduce", "generation", "--scale", "book", "--device", "cpu", "--no-chapters"]
    r = subprocess.run([sys.executable, "-m", "normxlogit.cli", *cmd], cwd=clone, env=env, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert "generation: done (computed 0" in r.stdout, r.stdout[-2000:]
    status = _status(clone)
    assert status == "", f"the book-scale re-run changed the clone:\n{status[:3000]}"


def test_every_experiments_own_reproduce_keeps_off_the_book():
    "Each experiment module's `reproduce` (what a user calls from Python) resolves its folders by `destinations`."
    import importlib
    import normxlogit.experiments.common as common
    for name in common.EXPERIMENT_MODULES:
        f = importlib.import_module(f"normxlogit.experiments.{name}").reproduce
        assert getattr(f, "destinations", None) == name, f"{name}.reproduce is not decorated with scratch_unless_book"
        assert common.load_experiments()[name].reproduce is f


def test_python_reproduce_tiny_leaves_the_clone_clean(tmp_path):
    """The Python route to the same defect: `pruning.reproduce('tiny')` and `blimp.reproduce('tiny')` wrote into the
    committed results before their `reproduce` was decorated; now they write into the scratch folder."""
    clone, env = _fresh_clone(tmp_path)
    code = ("from normxlogit.experiments import pruning, blimp\n"
            "print(pruning.reproduce('tiny', 'cpu')['computed'], blimp.reproduce('tiny', 'cpu')['computed'])")
    r = subprocess.run([sys.executable, "-c", code], cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert all(int(x) > 0 for x in r.stdout.split()), r.stdout
    scratch = tmp_path / "cache" / "scratch" / "tiny"
    assert (scratch / "pruning" / "pruning.csv").exists() and any((scratch / "blimp").rglob("alignment_tiny*.csv"))
    status = _status(clone)
    assert status == "", f"the tiny run changed the clone:\n{status[:3000]}"
