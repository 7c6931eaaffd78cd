"""Run every notebook's checks (what `nbdev_test` does), each notebook in a fresh Python process.

`nbdev_test --n_workers N` reuses its N worker processes: a notebook then runs after others in the same interpreter, and
the export cells those earlier notebooks executed stay live. A chapter that defines and registers a method (`#| export`
cells with `register_method`) leaves the registry pointing at the notebook's copy of the function, whose module-level
state (e.g. the Integrated Gradients completeness logs) is not the library's. Which notebook follows which depends on
timing, so such a leak makes a check pass or fail by chance. Here every notebook starts from a clean interpreter, so
its checks see the library exactly as `import normxlogit` gives it.

Usage: python tools/nbtest.py [--n_workers 2] [--timing] [--do_print] [paths or globs ...]
"""
import argparse, sys, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _one(fn: str):
    from nbdev.config import get_config
    from nbdev.test import test_nb
    from fastcore.xtras import working_directory
    cfg = get_config()
    with working_directory(cfg.nbs_path):
        return test_nb(Path(fn), skip_flags=cfg.tst_flags.split(), force_flags=[], do_print=ARGS_PRINT,
                       basepath=cfg.config_path)


ARGS_PRINT = False


def _init(do_print):
    global ARGS_PRINT
    ARGS_PRINT = do_print


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*", help="notebooks or globs (default: every notebook under nbs/)")
    ap.add_argument("--n_workers", type=int, default=2)
    ap.add_argument("--timing", action="store_true", help="print each notebook's time, slowest first")
    ap.add_argument("--do_print", action="store_true", help="print when each notebook starts and ends")
    a = ap.parse_args(argv)
    from nbdev.config import get_config
    from nbdev.test import _keep_file
    nbs = Path(get_config().nbs_path)
    if a.paths:
        files = sorted({p.resolve() for g in a.paths
                        for p in (Path().glob(g) if any(c in g for c in "*?[") else [Path(g)])})
    else:
        files = sorted(p.resolve() for p in nbs.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts
                       and not any(part.startswith(("_", ".")) for part in p.relative_to(nbs).parts))
    files = [f for f in files if _keep_file(f, ".notest")]
    if not files: sys.exit("no notebooks to test")
    start = time.time()
    with ProcessPoolExecutor(max_workers=max(1, a.n_workers), max_tasks_per_child=1, initializer=_init,
                             initargs=(a.do_print,)) as ex:
        results = list(ex.map(_one, [str(f) for f in files]))
    passed, times = zip(*results)
    if a.timing:
        for i in sorted(range(len(files)), key=lambda i: -times[i]): print(f"{files[i].name}: {int(times[i])} secs")
    print(f"{len(files)} notebooks in {time.time() - start:.0f} s, each in a fresh process")
    failed = [f.name for f, p in zip(files, passed) if not p]
    if failed:
        sys.stderr.write("\nnbdev tests failed on the following notebooks:\n" + "=" * 50 + "\n\t"
                         + "\n\t".join(failed) + "\n")
        sys.exit(1)
    print("Success.")


if __name__ == "__main__":
    main()
