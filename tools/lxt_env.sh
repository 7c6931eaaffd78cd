#!/usr/bin/env bash
# lxt 2.1 (the AttnLRP reference) breaks with transformers 5, so it runs in a separate venv with transformers 4.57.6
# (test/benchmark only; not a dependency). Usage:
#   bash tools/lxt_env.sh [crosscheck]   regenerate tools/lxt_crosscheck.json: our lrp/attnlrp vs lxt on tiny float64 models
#   bash tools/lxt_env.sh build          only build the venv ($LXT_ENV, default /tmp/lxtenv)
#   bash tools/lxt_env.sh speed ARGS...  Table 8 speed run: tools/lxt_speed.py run ARGS (e.g. --model smollm2-135m --lengths 20,130,480)
set -euo pipefail
cd "$(dirname "$0")/.."
ENV=${LXT_ENV:-/tmp/lxtenv}; WORK=${LXT_WORK:-/tmp/lxt_crosscheck}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
if [ ! -x "$ENV/bin/python" ]; then
  python3.11 -m venv "$ENV"
  "$ENV/bin/pip" install -q torch==2.13.0 transformers==4.57.6 safetensors
  # --no-deps: lxt declares heavy extras it does not need here; zennit declares torchvision, which would pull a newer
  # (multi-GB CUDA) torch over the pinned CPU one. lxt's ViT patch is the only torchvision user; the tools stub it.
  "$ENV/bin/pip" install -q --no-deps lxt==2.1 zennit==0.5.1
  "$ENV/bin/pip" install -q tabulate click Pillow torch==2.13.0
fi
cmd=${1:-crosscheck}; [ $# -gt 0 ] && shift
case "$cmd" in
  build) "$ENV/bin/python" -c "import torch, transformers, lxt; print('lxt env:', torch.__version__, transformers.__version__)" ;;
  speed) exec .venv/bin/python tools/lxt_speed.py run --lxt yes --lxt-python "$ENV/bin/python" "$@" ;;
  crosscheck)
    .venv/bin/python tools/lxt_crosscheck.py make "$WORK"
    for v in lrp attnlrp; do "$ENV/bin/python" tools/lxt_crosscheck.py lxt "$WORK" $v; done
    .venv/bin/python tools/lxt_crosscheck.py compare "$WORK" tools/lxt_crosscheck.json ;;
  *) echo "usage: bash tools/lxt_env.sh [crosscheck|build|speed ARGS...]" >&2; exit 2 ;;
esac
