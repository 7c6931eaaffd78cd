#!/usr/bin/env bash
# The test command: sets up the environment, checks the library is exported from the notebooks,
# runs every notebook's checks (nbdev_test) and the pytest suite (book build, CLI, package).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false NORMXLOGIT_SMALL=1 PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
start=$(date +%s)
echo "== repository checks (library exported from the notebooks, clean notebooks, README) =="
.venv/bin/python -m pytest -q tests/test_repo.py
echo "== converting the offline models once (later loads read the cache) =="
.venv/bin/python -c "from normxlogit.model.zoo import offline_path, tiny_model; offline_path('smollm2-135m'); [tiny_model(a) for a in ('bert', 'roberta', 'llama')]"
echo "== nbdev_test (every notebook's checks, each notebook in a fresh process: tools/nbtest.py) =="
.venv/bin/python tools/nbtest.py --n_workers ${NBDEV_WORKERS:-2} --do_print --timing
echo "nbdev_test took $(( $(date +%s) - start ))s"
echo "== pytest =="
.venv/bin/python -m pytest -q tests --ignore=tests/test_repo.py "$@"
