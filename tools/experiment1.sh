#!/usr/bin/env bash
# Experiment 1 of the NormXLogit paper (faithfulness), the methods of one model x task, resumable: every finished chunk is
# stored in <results>/chunks (committed, so a later session continues where this one stopped) and each method's rows go
# to <results>/<model>_<task>_<method>.csv.gz (the chunks of a finished method are then removed: its rows are in the
# CSV). A method whose file already holds the planned items (and, for IG, the completeness record) is skipped.
#   bash tools/experiment1.sh minilm-sst2 sst2 872            # model, task, number of held-out items
#   RESULTS=results/faithfulness/ablations/correct_only METHODS="normxlogit gxi" \
#     bash tools/experiment1.sh minilm-sst2 sst2 872 --correct-only   # an ablation: extra options go to the command
# Environment: METHODS (default: the model family's methods), RESULTS (default results/faithfulness), IG_STEPS (default 50,
# 25 for decoders, as the paper's Llama 2 runs), IG_BATCH (IG path sequences per pass, default 64, so that long inputs
# fit in memory). Options: --correct-only, --protocol strict, --embedding output, --keep-chunks, --device.
# This is `normxlogit experiment experiment1 run` (chapter 51a): the same code path and chunk keys as
# `normxlogit reproduce experiment1`.
set -euo pipefail
cd "$(dirname "$0")/.."
model=$1; task=$2; n=$3; shift 3
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
args=()
[ -n "${RESULTS:-${OUTDIR:-}}" ] && args+=(--results "${RESULTS:-$OUTDIR}")   # OUTDIR: the old name, still read
[ -n "${METHODS:-}" ] && args+=(--methods "$METHODS")
[ -n "${IG_STEPS:-}" ] && args+=(--ig-steps "$IG_STEPS")
[ -n "${IG_BATCH:-}" ] && args+=(--ig-batch "$IG_BATCH")
exec .venv/bin/normxlogit experiment experiment1 run "$model" "$task" "$n" "${args[@]}" "$@"
