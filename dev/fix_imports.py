"""One-off: rewrite `from normxlogit.X import names` lines (notebooks, tests, tools) after definitions moved rooms."""
import json, re, sys, subprocess
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
MOVED = {n: "normxlogit.evidence.datasets" for n in ["TaskData", "BLIMP_TRAIN_PARADIGMS", "SPLIT_SEED", "SVA_HELD_OUT",
         "AGREEMENT_EXTRA_PARADIGMS", "RA_HELD_OUT_FIRST", "task_data", "check_disjoint", "agreement_data"]}
MOVED.update(small_run="normxlogit.testing", model_fingerprint="normxlogit.model.zoo", uses_rmsnorm="normxlogit.model.heads",
             has_position_embeddings="normxlogit.model.heads", attention_bytes="normxlogit.model.heads",
             ATTENTION_BUDGET="normxlogit.model.batch", memory_split="normxlogit.model.batch", takes_option="normxlogit.registry",
             pass_on_warnings="normxlogit.attribution.ig", item_metrics="normxlogit.metrics.plausibility",
             bootstrap_weights="normxlogit.metrics.stats", holm="normxlogit.metrics.stats", bootstrap_ci="normxlogit.metrics.stats")
MOVED.update({k: v for k, v in json.loads(sys.argv[1]).items()} if len(sys.argv) > 1 else {})
line_re = re.compile(r"^(?P<ind>[ \t]*)from (?P<mod>normxlogit[\w.]*) import (?P<names>[^\n(]+?)(?P<tail>[ \t]*(#.*)?)$", re.M)
def fix(text, own=None):
    def sub(m):
        names = [x.strip() for x in m["names"].split(",") if x.strip()]
        keep, moved = [], {}
        for n in names:
            base = n.split(" as ")[0].strip()
            tgt = MOVED.get(base)
            if tgt and tgt != m["mod"]: moved.setdefault(tgt, []).append(n)
            else: keep.append(n)
        if not moved: return m[0]
        out = [f"{m['ind']}from {m['mod']} import {', '.join(keep)}{m['tail']}"] if keep else []
        out += [f"{m['ind']}from {t} import {', '.join(ns)}" for t, ns in moved.items() if t != own]
        return "\n".join(out) if out else f"{m['ind']}pass"
    return line_re.sub(sub, text)
def main():
    files = subprocess.run(["git", "ls-files", "nbs", "tests", "tools", "dev"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    for f in files:
        p = ROOT / f
        if p.suffix == ".ipynb":
            nb = json.loads(p.read_text()); ch = False
            own = None
            for c in nb["cells"]:
                s = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                mm = re.search(r"default_exp ([\w.]+)", s)
                if mm: own = "normxlogit." + mm[1]
            for c in nb["cells"]:
                if c["cell_type"] != "code": continue
                s = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                n = fix(s, own)
                if n != s: c["source"] = n; ch = True
            if ch: p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n"); print("fixed", f)
        elif p.suffix == ".py" and f != "dev/fix_imports.py":
            t = p.read_text(); n = fix(t)
            if n != t: p.write_text(n); print("fixed", f)
if __name__ == "__main__": main()
