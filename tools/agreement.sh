#!/usr/bin/env bash
# The full agreement benchmark of issue 12 (chapter "Agreement benchmark"), resumable, in two processes with one torch
# thread each (one per core of a 2-core machine; the split balances their CPU time). Every finished chunk goes to
# results/agreement/chunks and every finished (method, variant) to results/agreement/items, so a killed run continues
# where it stopped when the same command is run again; at the end `table` rebuilds results/agreement/table1.csv.
#   bash tools/agreement.sh                  # sva, ra and qa on SmolLM2, Gemma-3 and the agreement masked LM
#   TASKS="sva ra" bash tools/agreement.sh   # only some tasks (qa is about three quarters of the cost)
# Logs: logs/agreement-1.log (SmolLM2, masked LM), logs/agreement-2.log (Gemma-3).
# Long runs: bash tools/commit_while.sh "agreement chunks" results/agreement -- bash tools/agreement.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
read -r -a tasks <<< "${TASKS:-sva ra qa}"
run=(.venv/bin/python -m normxlogit.experiments.agreement)
cache=results/agreement/chunks
mkdir -p logs "$cache"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
"${run[@]}" run --models smollm2-135m minilm-agreement-mlm --tasks "${tasks[@]}" --threads 1 --cache "$cache" > logs/agreement-1.log 2>&1 &
pids+=($!)
"${run[@]}" run --models gemma3-270m --tasks "${tasks[@]}" --threads 1 --cache "$cache" > logs/agreement-2.log 2>&1 &
pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
[ $rc -eq 0 ] || { echo "agreement: a run failed (exit $rc), see logs/agreement-*.log" >&2; exit $rc; }
"${run[@]}" table --tasks "${tasks[@]}"
