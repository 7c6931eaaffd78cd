#!/usr/bin/env bash
# Run a long, resumable command and commit what it has finished so far every $EVERY seconds (default 600) and once at
# the end, so that a session that stops mid-run leaves its finished chunks in git for the next session to continue.
#   bash tools/commit_while.sh "BLiMP alignment chunks" results/blimp -- \
#       .venv/bin/normxlogit experiment blimp run
# Only the given paths are committed (`git commit -- PATHS`); nothing else in the index or the working tree is touched.
# Commits are retried when another git process holds the index lock. The command's exit status is returned.
set -uo pipefail
cd "$(dirname "$0")/.."
label=${1:?usage: commit_while.sh LABEL PATH... -- COMMAND...}; shift
paths=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do paths+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "commit_while.sh: missing -- before the command" >&2; exit 2; }
shift
[ ${#paths[@]} -gt 0 ] && [ $# -gt 0 ] || { echo "commit_while.sh: need PATH... -- COMMAND..." >&2; exit 2; }
every=${EVERY:-600}
snapshot() {   # $1: partial | done
  for try in 1 2 3 4 5; do

    git add -A -- "${paths[@]}" 2>/dev/null || { sleep 3; continue; }
    if git diff --cached --quiet -- "${paths[@]}"; then return 0; fi
    git commit -q -m "$label ($1, $(date -u +%H:%M) UTC)" -- "${paths[@]}" && { echo "[commit_while] committed $label ($1)"; return 0; }
    sleep 3
  done
  echo "[commit_while] could not commit $label ($1)" >&2
}
mkdir -p "${paths[@]}"
pid=""
# set before the command starts, so a stop that comes at once still commits what exists
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid"; fi; snapshot partial; exit 130' INT TERM
"$@" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  for ((s = 0; s < every; s += 5)); do kill -0 "$pid" 2>/dev/null || break; sleep 5 & wait $!; done   # wait: a signal is handled at once
  kill -0 "$pid" 2>/dev/null && snapshot partial
done
wait "$pid"; rc=$?
snapshot "$([ $rc -eq 0 ] && echo done || echo "partial, exit $rc")"
exit $rc
