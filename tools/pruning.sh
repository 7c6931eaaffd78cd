#!/usr/bin/env bash
# The head-pruning runs of issue 12 (chapter "Head pruning") on SmolLM2-135M, resumable. One task after another
# (sva, ra, qa); each task runs in two processes with one torch thread each on the same chunk folder, the second with
# --reverse (it computes the curves, and each curve's chunks, last first), so both cores work on one task and the two
# meet in the middle, reading back what the other stored. Measured costs (one thread): sva about 3.4 CPU hours, ra about
# 1, qa about 3. Chunks go to results/pruning/chunks and rows to results/agreement/pruning.csv (written under a lock),
# figures and each run's CPU cost (pruning_<model>_<task>.json, summed over its chunks) next to it. A killed run
# continues where it stopped when the same command is run again.
#   bash tools/pruning.sh
#   bash tools/commit_while.sh "pruning chunks" results/pruning results/agreement -- bash tools/pruning.sh
# qa is run at a reduced size (100 items, the paper's three best methods with ReLU per token, every 15th head): the
# full qa configuration would take some 35 CPU hours here; the chapter says so beside the figure.
# Overrides: NXL_MODEL (default smollm2-135m), NXL_TASKS (default "sva ra qa"), NXL_CACHE, NXL_LOGS, NXL_PYTHON; extra
# arguments go to every run (e.g. --max-pruned 10).
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
run=("${NXL_PYTHON:-.venv/bin/python}" -m normxlogit.experiments.pruning --model "${NXL_MODEL:-smollm2-135m}" --threads 1
     --cache "${NXL_CACHE:-results/pruning/chunks}")
logs=${NXL_LOGS:-logs}
mkdir -p "$logs"
trap 'for p in $(jobs -p); do pkill -TERM -P "$p"; kill "$p"; done 2>/dev/null; wait; exit 130' INT TERM
for task in ${NXL_TASKS:-sva ra qa}; do
  case $task in
    sva|ra) size=(--n 300 --step 5) ;;
    qa) size=(--n 100 --n-pool 1000 --step 15 --methods attnlrp,lrp,gxi --poolings relu_token) ;;
    *) echo "pruning: unknown task $task (sva, ra or qa)" >&2; exit 2 ;;
  esac
  "${run[@]}" --task "$task" "${size[@]}" --figure "$@" > "$logs/pruning-$task.log" 2>&1 &
  a=$!
  "${run[@]}" --task "$task" "${size[@]}" --reverse "$@" > "$logs/pruning-$task-reverse.log" 2>&1 &
  b=$!
  rc=0
  wait $a || rc=$?
  wait $b || rc=$?
  [ $rc -eq 0 ] || { echo "pruning: a $task run failed (exit $rc), see $logs/pruning-$task*.log" >&2; exit $rc; }
  echo "pruning: $task done"
done
echo "pruning: done; rows in pruning.csv (results/agreement unless --results), see $logs/pruning-*.log"
