#!/usr/bin/env python
"""Fine-tune the project's small models and write their artifacts
to models/<name>/ (thin CLI over normxlogit.model.finetune).

    python tools/finetune.py minilm-sst2 smollm2-sst2      # given models
    python tools/finetune.py all --seed 0                  # every recipe
    python tools/finetune.py minilm-sst2 --n-train 8000 --epochs 3 --force
"""
import argparse, json, os, sys
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from normxlogit.model.finetune import RECIPES, finetune

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="+", help=f"'all' or some of {sorted(RECIPES)}")
    ap.add_argument("--n-train", type=int, default=None, help="training examples (default: the recipe's CPU size)")
    ap.add_argument("--epochs", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-dev", type=int, default=None, help="evaluate on the first N dev items only (default: all)")
    ap.add_argument("--force", action="store_true", help="retrain even if a matching artifact exists")
    ap.add_argument("--out-dir", default=None, help="write here instead of models/<name>/ (one name only)")
    a = ap.parse_args(argv)
    names = list(RECIPES) if a.names == ["all"] else a.names
    bad = [n for n in names if n not in RECIPES]
    if bad: ap.error(f"unknown names {bad}; choices: {sorted(RECIPES)} or 'all'")
    if a.out_dir and len(names) > 1: ap.error("--out-dir needs exactly one name")
    for n in names:
        r = finetune(n, n_train=a.n_train, epochs=a.epochs, seed=a.seed, force=a.force,
                     out_dir=a.out_dir, n_dev=a.n_dev)
        print(json.dumps({k: r[k] for k in ("name", "dev_score", "n_train", "dev_size", "seed",
                                            "train_time_s", "artifact_bytes")}), flush=True)

if __name__ == "__main__":
    main()
