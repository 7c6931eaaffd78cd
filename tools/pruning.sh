#!/usr/bin/env bash
# The head-pruning runs of issue 12 (chapter 54, "Head pruning") on SmolLM2-135M, resumable. One task after another
# (sva, ra, qa); each task runs in two processes with one torch thread each on the same chunk folder: the first writes
# the results, the second (--reverse --no-write) computes relevances and curves, and each one's chunks, last first, so
# both cores work on one task and the two meet in the middle, reading back what the other stored. The chunks store their
# CPU cost; chapter 54 prints the sum ("The run and its cost"). Chunks go to results/pruning/chunks, rows to
# results/agreement/pruning.csv and each item's areas to pruning_items.csv.gz (written under a lock), the figure and the
# run record (pruning_<model>_<task>.json) next to them. A killed run continues where it stopped when the same command is
# run again. The same sizes in one process: `normxlogit reproduce pruning --scale book` (which also writes
# pruning_findings.csv); ra's antecedents come from the dependency rule, as in the committed run.
#   bash tools/pruning.sh
#   bash tools/commit_while.sh "pruning chunks" results/pruning results/agreement -- bash tools/pruning.sh
# qa is run at a reduced size (100 items, the paper's three best methods with ReLU per token, every 15th head): the
# paper's qa configuration is estimated in chapter 54 from the measured rate (`normxlogit reproduce pruning --scale paper
# --estimate-only`); the chapter says so beside the figure.
# Overrides: NXL_MODEL (default smollm2-135m), NXL_TASKS (default "sva ra qa"), NXL_CACHE, NXL_LOGS, NXL_NORMXLOGIT (the command), NXL_PYTHON
# (instead: `$NXL_PYTHON -m normxlogit.cli`); extra
# arguments go to both processes of every task (e.g. --max-pruned 10; not --figure, --reverse or --no-write, which set
# the two roles).
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
if [ -n "${NXL_PYTHON:-}" ]; then cli=("$NXL_PYTHON" -m normxlogit.cli); else cli=("${NXL_NORMXLOGIT:-.venv/bin/normxlogit}"); fi
run=("${cli[@]}" experiment pruning run --model "${NXL_MODEL:-smollm2-135m}" --threads 1
     --coref dependency --cache "${NXL_CACHE:-results/pruning/chunks}")
logs=${NXL_LOGS:-logs}
tasks=(${NXL_TASKS:-sva ra qa})
for task in "${tasks[@]}"; do
  case $task in sva|ra|qa) ;; *) echo "pruning: unknown task $task (sva, ra or qa)" >&2; exit 2 ;; esac
done
mkdir -p "$logs"
trap 'for p in $(jobs -p); do pkill -TERM -P "$p"; kill "$p"; done 2>/dev/null; wait; exit 130' INT TERM
for task in "${tasks[@]}"; do
  case $task in
    sva|ra) size=(--n 300 --step 5) ;;
    qa) size=(--n 100 --n-pool 1200 --step 15 --methods attnlrp,lrp,gxi --poolings relu_token) ;;
  esac
  "${run[@]}" --task "$task" "${size[@]}" --figure "$@" > "$logs/pruning-$task.log" 2>&1 &
  "${run[@]}" --task "$task" "${size[@]}" --reverse --no-write "$@" > "$logs/pruning-$task-reverse.log" 2>&1 &
  for _ in 1 2; do                       # the first process to fail stops the other at once
    wait -n; rc=$?
    if [ $rc -ne 0 ]; then
      for p in $(jobs -p); do kill "$p"; done 2>/dev/null; wait
      echo "pruning: a $task run failed (exit $rc), see $logs/pruning-$task*.log" >&2; exit $rc
    fi
  done
  echo "pruning: $task done"
done
echo "pruning: done; rows in pruning.csv (results/agreement unless --results), see $logs/pruning-*.log"
