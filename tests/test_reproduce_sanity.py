"`normxlogit reproduce sanity` at the tiny scale: the result files appear, and a second run computes nothing."
import pandas as pd
from normxlogit.experiments.common import reproduce

def test_reproduce_sanity_tiny(tmp_path):
    run = lambda: reproduce(["sanity"], scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks",
                            chapters=False, out=lambda s: None)["sanity"]
    got = run()
    assert got["computed"] > 0 and set(got["models"]) == {"tiny-bert"}
    files = ["randomisation.csv", "factors.csv", "skipped.csv", "runs.json", "items/tiny-bert.csv.gz", "items/tiny-bert_factors.csv.gz"]
    assert all((tmp_path / f).exists() for f in files), sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert any((tmp_path / "chunks").rglob("chunk-*.npz"))
    before = {f: (tmp_path / f).read_bytes() for f in ("randomisation.csv", "factors.csv", "skipped.csv")}
    again = run()
    assert again["computed"] == 0
    assert {f: (tmp_path / f).read_bytes() for f in before} == before       # the same results, byte for byte
    assert set(pd.read_csv(tmp_path / "randomisation.csv").test) == {"cascade", "independent", "random_target"}
