"The generation faithfulness study reproduces at the tiny size, and a second run computes nothing."
import gzip
from normxlogit.experiments.common import reproduce

def _content(p): return gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()

def test_tiny_reproduce_twice(tmp_path):
    first = reproduce(["generation"], scale="tiny", results=tmp_path, cache=tmp_path / "chunks", chapters=False, out=lambda s: None)
    before = {p: _content(p) for p in tmp_path.glob("faithfulness*.csv*")}
    assert before and first["generation"]["computed"] > 0
    again = reproduce(["generation"], scale="tiny", results=tmp_path, cache=tmp_path / "chunks", chapters=False, out=lambda s: None)
    assert again["generation"]["computed"] == 0                     # everything read back from the chunks
    assert {p: _content(p) for p in before} == before               # the same numbers
