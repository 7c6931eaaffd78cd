#!/usr/bin/env bash
# Experiment 1 of the NormXLogit paper (faithfulness), one method at a time, resumable: every finished chunk is stored in
# results/faithfulness/chunks (committed, so a later session continues where this one stopped) and each method's rows go
# to results/faithfulness/<model>_<task>_<method>.csv.gz (the
# chunks of a finished method are then removed: its rows are in the CSV, and its explanations can be recomputed).
#   bash tools/experiment1.sh minilm-sst2 sst2 872            # model, task, number of held-out items
#   OUTDIR=results/faithfulness/ablations/correct_only METHODS="normxlogit gxi" \
#     bash tools/experiment1.sh minilm-sst2 sst2 872 --correct-only   # an ablation: extra options go to the CLI
# Methods and options follow the paper (Gradient Norm = L1 norm of the gradient; Gradient x Input and Integrated
# Gradients with 50 steps (25 for decoders, as the paper's Llama 2 runs; IG_BATCH=64 path sequences per pass, so that
# long inputs fit in memory: a batch of 16 MNLI items x 25 steps at once took 24 GB on SmolLM2) aggregated with the L1 norm over the embedding dimensions), plus AttnLRP and LRP.
set -euo pipefail
cd "$(dirname "$0")/.."
model=$1; task=$2; n=$3; shift 3
methods=${METHODS:-"random l2norm logat normxlogit grad_l1 gxi decompx attnlrp lrp ig"}
case $model in smollm2*|gemma*|llama*) dsteps=25 ;; *) dsteps=50 ;; esac  # the paper: 25 steps for the decoder
steps=${IG_STEPS:-$dsteps}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
outdir=${OUTDIR:-results/faithfulness}
mkdir -p "$outdir"
for m in $methods; do
  out=$outdir/${model}_${task}_${m}.csv.gz
  [ -f "$out" ] && { echo "$out exists"; continue; }
  case $m in
    gxi) opts='{"gxi": {"aggregate": "l1"}}' ;;
    ig)  opts="{\"ig\": {\"n_steps\": $steps, \"aggregate\": \"l1\", \"internal_batch_size\": ${IG_BATCH:-64}}}" ;;  # 64 sequences per pass: bounded memory
    *)   opts='{}' ;;
  esac
  echo "== $model $task $m $(date +%T)"
  .venv/bin/normxlogit faithfulness --model "$model" --task "$task" --methods "$m" --method-options "$opts" --n "$n" \
     --out "$out" --cache "$outdir"/chunks --protocol paper --batch-size 16 "$@"
  rm -rf "$outdir"/chunks/faith-"$m"-*
done
