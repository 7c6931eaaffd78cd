import os, subprocess
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

@pytest.fixture(scope="session")
def root(): return ROOT

def run(*cmd, check=True, **kw):
    r = subprocess.run([str(c) for c in cmd], cwd=ROOT, capture_output=True, text=True, **kw)
    if check and r.returncode: raise AssertionError(f"{cmd} failed "
                                                    f"({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r
