"`normxlogit reproduce pruning` at the tiny scale: the result files appear, and a second run computes nothing."
from normxlogit.experiments.common import reproduce

def test_reproduce_pruning_tiny(tmp_path):
    got = reproduce(["pruning"], scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks", chapters=False,
                    out=lambda s: None)["pruning"]
    assert got["computed"] > 0 and set(got["tasks"]) == {"sva", "ra"}
    files = ["pruning.csv", "pruning_items.csv.gz", "pruning_findings.csv", "pruning_tiny-llama_sva.json", "pruning_tiny-llama_ra.json"]
    assert all((tmp_path / f).exists() for f in files), sorted(p.name for p in tmp_path.iterdir())
    before = {f: (tmp_path / f).read_bytes() for f in ("pruning.csv", "pruning_items.csv.gz", "pruning_findings.csv")}
    again = reproduce(["pruning"], scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks", chapters=False,
                      out=lambda s: None)["pruning"]
    assert again["computed"] == 0 and all(t["reused"] > 0 for t in again["tasks"].values())
    assert {f: (tmp_path / f).read_bytes() for f in before} == before       # the same results, byte for byte
