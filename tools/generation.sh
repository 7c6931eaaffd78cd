#!/usr/bin/env bash
# The faithfulness study of generation explanations (chapter 54) on SmolLM2-135M-Instruct, resumable: 50 SQuAD
# questions x up to 20 generated tokens, every method that explains a causal LM, one question per chunk. Chunks go to
# results/generation/chunks (kept with the clone, so a re-run computes nothing), the rows to
# results/generation/faithfulness.csv (+ faithfulness_steps.csv.gz, faithfulness.json with the run's CPU cost).
# A killed run continues where it stopped when the same command is run again.
#   bash tools/generation.sh                      # one process, one torch thread
#   NXL_PROCS=2 bash tools/generation.sh          # two processes on the same chunk folder: the second visits the
#                                                 # questions last first and writes nothing; they meet in the middle
#   bash tools/commit_while.sh "generation chunks" results/generation -- bash tools/generation.sh
# Same as `python -m normxlogit.experiments.generation run ...`.
# Overrides: NXL_MODEL (default smollm2-135m), NXL_PROMPTS (50), NXL_TOKENS (20), NXL_CACHE, NXL_LOGS, NXL_NORMXLOGIT;
# extra arguments go to every process (e.g. --methods normxlogit,gxi,random or --ig-steps 32).
set -uo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
run=("${NXL_NORMXLOGIT:-.venv/bin/normxlogit}" experiment generation run --model "${NXL_MODEL:-smollm2-135m}"
     --prompts "${NXL_PROMPTS:-50}" --new-tokens "${NXL_TOKENS:-20}" --threads 1 --cache "${NXL_CACHE:-results/generation/chunks}")
logs=${NXL_LOGS:-logs}
mkdir -p "$logs"
procs=${NXL_PROCS:-1}
case $procs in 1|2) ;; *) echo "generation: NXL_PROCS must be 1 or 2" >&2; exit 2 ;; esac
trap 'for p in $(jobs -p); do kill "$p"; done 2>/dev/null; wait; exit 130' INT TERM
if [ "$procs" = 2 ]; then
  "${run[@]}" --reverse --no-write "$@" > "$logs/generation-reverse.log" 2>&1 &
fi
"${run[@]}" "$@" > "$logs/generation.log" 2>&1
rc=$?
wait
[ $rc -ne 0 ] && { echo "generation: the run failed (exit $rc), see $logs/generation*.log" >&2; exit $rc; }
echo "generation: done; rows in results/generation/faithfulness.csv, see $logs/generation.log"
