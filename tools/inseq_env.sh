#!/usr/bin/env bash
# inseq 0.7.1 (the reference for explaining generations token by token) in a separate venv: its wheel declares CUDA
# libraries (nvidia-*-cu11) on Linux that would pull gigabytes and a CUDA torch, so it is installed with --no-deps beside
# the pinned CPU torch and the project's transformers, plus the few packages it imports. Benchmark/cross-check only; not
# a dependency of the library. The benchmark script runs in this venv and imports normxlogit from the repo (PYTHONPATH),
# so both libraries explain the same generations with the same weights in one process. Usage:
#   bash tools/inseq_env.sh build           only build the venv ($INSEQ_ENV, default /tmp/inseqenv)
#   bash tools/inseq_env.sh bench ARGS...   tools/inseq_bench.py ARGS in that venv (e.g. --model smollm2-135m --prompts 6)
#   bash tools/inseq_env.sh                 the default benchmark run of chapter 58, "Benchmark: explaining generations"
#                                           (writes results/generation/benchmark.csv and .json; run it on a quiet machine)
set -euo pipefail
cd "$(dirname "$0")/.."
ENV=${INSEQ_ENV:-/tmp/inseqenv}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
# pip then reports inseq's unmet security pins (aiohttp, authlib, ... which it never imports): filtered out
quiet() { grep -v -e "^WARNING: Location" -e "inseq 0.7.1 requires" -e "dependency resolver" -e "dependency conflicts" || true; }
if [ ! -x "$ENV/bin/python" ] || ! "$ENV/bin/python" -c "import inseq" 2>/dev/null; then
  python3.11 -m venv "$ENV"
  "$ENV/bin/pip" install -q torch==2.13.0 2>&1 | quiet
  # the project's own versions where both need them (same numerics as the main environment)
  "$ENV/bin/pip" install -q torch==2.13.0 transformers==5.23.0 tokenizers safetensors sentencepiece protobuf numpy scipy \
    pandas tqdm matplotlib captum==0.9.0 accelerate==1.15.0 2>&1 | quiet
  # inseq without its declared CUDA libraries, then what it imports
  "$ENV/bin/pip" install -q --no-deps inseq==0.7.1 2>&1 | quiet
  "$ENV/bin/pip" install -q rich jaxtyping "typeguard<=2.13.3" treescope torch==2.13.0 2>&1 | quiet
fi
cmd=${1:-default}; [ $# -gt 0 ] && shift
run() { PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" "$ENV/bin/python" tools/inseq_bench.py "$@"; }
case "$cmd" in
  build) "$ENV/bin/python" -c "import torch, transformers, inseq; import importlib.metadata as md; print('inseq env: torch', torch.__version__, 'transformers', transformers.__version__, 'inseq', md.version('inseq'))" ;;
  bench) run "$@" ;;
  default) run --model smollm2-135m --prompts 6 --new-tokens 20 --repeats 3 --forward-tokens 64 --forward-repeats 15 ;;
  *) echo "usage: bash tools/inseq_env.sh [build|bench ARGS...]" >&2; exit 2 ;;
esac
