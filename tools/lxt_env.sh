#!/usr/bin/env bash
# Regenerate tools/lxt_crosscheck.json: our lrp/attnlrp vs lxt 2.1 on tiny float64 models (see tools/lxt_crosscheck.py).
# lxt 2.1 breaks with transformers 5, so it runs in a separate venv with transformers 4.57.6 (test-only; not a dependency).
set -euo pipefail
cd "$(dirname "$0")/.."
ENV=${LXT_ENV:-/tmp/lxtenv}; WORK=${LXT_WORK:-/tmp/lxt_crosscheck}
if [ ! -x "$ENV/bin/python" ]; then
  python3.11 -m venv "$ENV"
  "$ENV/bin/pip" install -q torch==2.13.0 transformers==4.57.6 safetensors
  "$ENV/bin/pip" install -q --no-deps lxt==2.1
  "$ENV/bin/pip" install -q zennit tabulate
fi
HF_HUB_OFFLINE=1 .venv/bin/python tools/lxt_crosscheck.py make "$WORK"
for v in lrp attnlrp; do HF_HUB_OFFLINE=1 "$ENV/bin/python" tools/lxt_crosscheck.py lxt "$WORK" $v; done
.venv/bin/python tools/lxt_crosscheck.py compare "$WORK" tools/lxt_crosscheck.json
