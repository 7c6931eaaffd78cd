#!/usr/bin/env bash
# The full agreement benchmark of issue 12 (chapter "Agreement benchmark"), resumable, in two processes with one torch
# thread each (one per core of a 2-core machine; the split balances their CPU time). Every finished chunk goes to
# results/agreement/chunks and every finished (method, variant) to results/agreement/items, so a killed run continues
# where it stopped when the same command is run again; at the end `table` rebuilds results/agreement/table1.csv.
#   bash tools/agreement.sh                  # sva, ra and qa on SmolLM2, Gemma-3 and the agreement masked LM
#   TASKS="sva ra" bash tools/agreement.sh   # only some tasks (qa is about three quarters of the cost)
#   bash tools/agreement.sh --n sva=2 --pool sva=12 --methods random logat --variants base   # arguments go to both runs
# Logs: logs/agreement-1.log (SmolLM2, masked LM), logs/agreement-2.log (Gemma-3).
# Long runs: bash tools/commit_while.sh "agreement chunks" results/agreement -- bash tools/agreement.sh
# Overrides (tests, other machines): NXL_MODELS_1, NXL_MODELS_2 (the two processes' models), NXL_CACHE (chunk folder),
# NXL_LOGS (log folder), NXL_PYTHON (an interpreter: `$NXL_PYTHON -m normxlogit.cli` instead of .venv/bin/normxlogit);
# NORMXLOGIT_RESULTS moves the results as everywhere in the library.
# The runs leave table1.csv alone (--no-table); it is written once, from every item file of every task (TASKS limits
# what runs, not the table), after both have finished.
# A run with more items than the stored one reuses its chunks: `--n sva=1000` computes only the items after the stored
# 300 (chapter "Agreement benchmark: the run"). The same sizes in one process: `normxlogit reproduce agreement --scale book`.
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
read -r -a tasks <<< "${TASKS:-sva ra qa}"
read -r -a models1 <<< "${NXL_MODELS_1:-smollm2-135m minilm-agreement-mlm}"
read -r -a models2 <<< "${NXL_MODELS_2:-gemma3-270m}"
if [ -n "${NXL_PYTHON:-}" ]; then run=("$NXL_PYTHON" -m normxlogit.cli experiment agreement); else run=(.venv/bin/normxlogit experiment agreement); fi
cache=${NXL_CACHE:-results/agreement/chunks}
logs=${NXL_LOGS:-logs}
mkdir -p "$logs" "$cache"
pids=()
trap 'kill $(jobs -p) 2>/dev/null; wait; exit 130' INT TERM
"${run[@]}" run --models "${models1[@]}" --tasks "${tasks[@]}" --threads 1 --cache "$cache" --no-table "$@" > "$logs/agreement-1.log" 2>&1 &
pids+=($!)
"${run[@]}" run --models "${models2[@]}" --tasks "${tasks[@]}" --threads 1 --cache "$cache" --no-table "$@" > "$logs/agreement-2.log" 2>&1 &
pids+=($!)
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
[ $rc -eq 0 ] || { echo "agreement: a run failed (exit $rc), see $logs/agreement-*.log" >&2; exit $rc; }
"${run[@]}" table --models "${models1[@]}" "${models2[@]}" "$@"   # every task: TASKS limits the runs, not the table
