"`normxlogit reproduce agreement` at the tiny scale: the result files appear, and a second run computes nothing."
from normxlogit.experiments.common import reproduce

def test_reproduce_agreement_tiny(tmp_path):
    run = lambda: reproduce(["agreement"], scale="tiny", device="cpu", results=tmp_path, cache=tmp_path / "chunks",
                            chapters=False, out=lambda s: None)["agreement"]
    got = run()
    assert got["computed"] > 0 and got["rows"] > 0
    items = sorted(p.name for p in (tmp_path / "items").iterdir())
    for model in ("tiny-llama", "tiny-bert"):
        for f in (f"{model}_sva_2.csv.gz", f"{model}_sva_2.json", f"{model}_ra_2.csv.gz", f"{model}_qa_1.json"):
            assert f in items, items
    assert (tmp_path / "table1.csv").exists() and any((tmp_path / "chunks").glob("tiny-llama-sva-*"))
    before = {p.name: p.read_bytes() for p in [tmp_path / "table1.csv", *sorted((tmp_path / "items").iterdir())]}
    again = run()
    assert again == dict(got, computed=0)
    after = {p.name: p.read_bytes() for p in [tmp_path / "table1.csv", *sorted((tmp_path / "items").iterdir())]}
    assert after == before                                                   # the same results, byte for byte
