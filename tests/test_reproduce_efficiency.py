"`normxlogit reproduce efficiency` at the tiny scale: both CSVs appear, and a second run measures nothing."
import pandas as pd
from normxlogit.experiments.common import reproduce

def test_reproduce_efficiency_tiny(tmp_path):
    run = lambda: reproduce(["efficiency"], scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks",
                            chapters=False, out=lambda s: None)["efficiency"]
    got = run()
    assert got["computed"] > 0 and got["time rows"] > 0 and got["memory rows"] > 0
    t = pd.read_csv(tmp_path / "time.csv")
    assert set(t.model) == {"tiny:bert", "tiny:llama:causal_lm"} and t.run_cpu_s.notna().all() and t.load_avg_end.notna().all()
    assert t.groupby(["model", "length"]).run_id.nunique().eq(1).all()        # one run per model and length
    assert (tmp_path / "memory.csv").exists()
    before = {f: (tmp_path / f).read_bytes() for f in ("time.csv", "memory.csv")}
    assert run()["computed"] == 0
    assert {f: (tmp_path / f).read_bytes() for f in before} == before
