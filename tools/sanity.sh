#!/usr/bin/env bash
# Sanity checks of every registered method (issue 16; `normxlogit experiment sanity --help`; both sets:
# `normxlogit reproduce sanity --scale book`): cascading and independent model-parameter randomisation,
# random-target test and (MiniLM) data randomisation, resumable: every finished chunk is stored in $CACHE (default
# results/sanity/chunks), so a killed run continues where it stopped; the tidy results go to $OUT (default
# results/sanity): randomisation.csv (model, method, test, randomised, metric, value, n), factors.csv, skipped.csv,
# runs.json and the per-item values items/<model>.csv.gz.
#   bash tools/sanity.sh minilm            # minilm-sst2, 200 SST-2 dev items, every layer, data test with minilm-sst2-permuted
#   bash tools/sanity.sh smollm2           # smollm2-sst2 (100 SST-2 dev items) if models/smollm2-sst2 exists, else the
#                                          # base LM smollm2-135m on 100 Linzen agreement prefixes; every 5th layer
#   N=8 bash tools/sanity.sh minilm        # a tiny test run (writes to $TMPDIR/normxlogit-sanity-N8 unless OUT is set)
#   ESTIMATE=1 N=4 bash tools/sanity.sh minilm   # time one pass over N items, print the projected CPU time of the full run
# Knobs (environment): N, METHODS (comma-separated), TESTS, LAYER_STEP, IG_STEPS (16), CHUNK (8), OUT, CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
which=${1:?usage: bash tools/sanity.sh minilm|smollm2}
case $which in
  minilm)  full=200; args=(--model minilm-sst2 --task sst2 --permuted minilm-sst2-permuted --layer-step "${LAYER_STEP:-1}") ;;
  smollm2) full=100
           if [ -f models/smollm2-sst2/result.json ]; then args=(--model smollm2-sst2 --task sst2)
           else args=(--model smollm2-135m --task sva); fi
           args+=(--layer-step "${LAYER_STEP:-5}") ;;
  *) echo "unknown model set '$which' (minilm or smollm2)" >&2; exit 2 ;;
esac
n=${N:-$full}
if [ "$n" -lt "$full" ] && [ -z "${OUT:-}" ]; then OUT=${TMPDIR:-/tmp}/normxlogit-sanity-N$n; fi
OUT=${OUT:-results/sanity}
CACHE=${CACHE:-$OUT/chunks}
args+=(--n "$n" --ig-steps "${IG_STEPS:-16}" --chunk-size "${CHUNK:-8}")
[ -n "${METHODS:-}" ] && args+=(--methods "$METHODS")
[ -n "${TESTS:-}" ] && args+=(--tests "$TESTS")
if [ -n "${ESTIMATE:-}" ]; then cmd=(time --n-full "$full"); else cmd=(run --results "$OUT" --cache "$CACHE"); fi
echo "== sanity $which: ${cmd[*]} ${args[*]} ($(date +%T))"
.venv/bin/normxlogit experiment sanity "${cmd[@]}" "${args[@]}"
