#!/usr/bin/env bash
# The head-pruning runs of issue 12 (chapter "Head pruning") on SmolLM2-135M, resumable, in two processes with one
# torch thread each (their CPU times balance: sva about 5.7 CPU hours; ra 1.9 then qa about 3). Chunks go to
# results/pruning/chunks and rows to results/agreement/pruning.csv (written under a lock, so both may finish at once),
# figures and each run's CPU cost (pruning_<model>_<task>.json, summed over its chunks) next to it. A killed run continues where it stopped when the same command is run again.
#   bash tools/pruning.sh
#   bash tools/commit_while.sh "pruning chunks" results/pruning results/agreement -- bash tools/pruning.sh
# qa is run at a reduced size (100 items, the paper's three best methods with ReLU per token, every 15th head): the
# full qa configuration would take some 35 CPU hours here; the chapter says so beside the figure.
# Overrides: NXL_MODEL (default smollm2-135m), NXL_CACHE, NXL_LOGS, NXL_PYTHON; extra arguments go to every run (e.g. --max-pruned 10).
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
run=("${NXL_PYTHON:-.venv/bin/python}" -m normxlogit.experiments.pruning --model "${NXL_MODEL:-smollm2-135m}" --threads 1
     --cache "${NXL_CACHE:-results/pruning/chunks}" --figure)
logs=${NXL_LOGS:-logs}
mkdir -p "$logs"
pids=()
trap 'for p in $(jobs -p); do pkill -TERM -P "$p"; kill "$p"; done 2>/dev/null; wait; exit 130' INT TERM
"${run[@]}" --task sva --n 300 --step 5 "$@" > "$logs/pruning-sva.log" 2>&1 &
pids+=($!)
( "${run[@]}" --task ra --n 300 --step 5 "$@" > "$logs/pruning-ra.log" 2>&1 &&
  "${run[@]}" --task qa --n 100 --n-pool 700 --step 15 --methods attnlrp,lrp,gxi --poolings relu_token "$@" > "$logs/pruning-qa.log" 2>&1 ) &
pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
[ $rc -eq 0 ] || { echo "pruning: a run failed (exit $rc), see $logs/pruning-*.log" >&2; exit $rc; }
echo "pruning: done; rows in pruning.csv (results/agreement unless --results), see $logs/pruning-*.log"
