#!/usr/bin/env bash
# Screenshot a page of the built book in headless Chromium (to look at it as a reader does).
#   bash tools/shot.sh 26_lrpx_rules.html /tmp/26.png [height] [width]
set -euo pipefail
cd "$(dirname "$0")/.."
page=$1; out=$2; h=${3:-2400}; w=${4:-1400}
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$(mktemp -d)" --hide-scrollbars \
  --virtual-time-budget=8000 --window-size="$w,$h" --screenshot="$out" "file://$(pwd)/_build/_build/html/$page" 2>/dev/null
