#!/usr/bin/env bash
# Build the book: export the library, run every notebook (regenerating all figures and tables),
# and render the static HTML site with Jupyter Book into _build/html (open _build/html/index.html).
#   bash tools/book.sh            # run every notebook (experiments read their cached results) and build
#   bash tools/book.sh --no-exec  # render the stored notebook outputs only (fast)
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export NORMXLOGIT_DATA=${NORMXLOGIT_DATA:-$(cd .. && pwd)/shared/data}
exec_mode=all; [ "${1:-}" = "--no-exec" ] && exec_mode=off
.venv/bin/nbdev_export
.venv/bin/python tools/build_book.py --execute "$exec_mode"
echo "book: $(pwd)/_build/html/index.html"
