"""One-off: move the flat package into role subpackages and renumber the chapters by room (issue 30).
Rewrites module paths and notebook names in every text file of the repo (single pass per file)."""
import json, re, subprocess, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
MODS = {  # old module -> new module (under normxlogit.)
 "heads": "model.heads", "batch": "model.batch", "zoo": "model.zoo", "tracing": "model.tracing", "finetune": "model.finetune",
 "logit_attribution": "attribution.logit_attribution", "gradients": "attribution.gradients", "ig": "attribution.ig",
 "attention": "attribution.attention", "alti_logit": "attribution.alti_logit", "lrp": "attribution.lrp",
 "lrp_rules": "attribution.lrp_rules", "alti": "attribution.alti", "globenc": "attribution.globenc",
 "value_zeroing": "attribution.value_zeroing", "decompx": "attribution.decompx", "head_relevance": "attribution.head_relevance",
 "data": "evidence.datasets", "evidence": "evidence.extractors", "spans": "evidence.spans", "parse": "evidence.parse",
 "plausibility": "metrics.plausibility", "faithfulness": "metrics.faithfulness", "runner": "metrics.faithfulness_run",
 "sanity": "experiments.sanity"}
NBS = {  # old notebook stem -> new stem
 "06_cache": "01_cache", "01_registry": "02_registry", "01_plot": "03_plot", "02_core": "04_core", "04_cli": "06_cli",
 "05_testing": "07_testing", "01_heads": "10_heads", "02_batch": "11_batch", "00_zoo": "12_zoo", "29_tracing": "13_tracing",
 "44_finetune": "14_finetune", "03_normxlogit": "20_normxlogit", "20_gradients": "21_gradients",
 "21_integrated_gradients": "22_integrated_gradients", "22_attention": "23_attention", "23_alti_logit": "24_alti_logit",
 "24_head_relevance": "25_head_relevance", "10_lrpx_rules": "26_lrpx_rules", "11_lrp": "27_lrp",
 "12_lrp_conservation": "28_lrp_conservation", "13_lrp_crosscheck": "29_lrp_crosscheck", "40_data": "40_datasets",
 "41a_spans": "42_spans", "41b_parse": "43_parse", "42_plausibility": "44_plausibility", "43_faithfulness": "45_faithfulness",
 "45_runner": "46_faithfulness_run", "52_experiment1": "51_experiment1", "50_blimp_alignment": "52_blimp_alignment",
 "51_agreement_benchmark": "53_agreement_benchmark", "53_head_pruning": "54_head_pruning", "46_sanity": "55_sanity",
 "47_efficiency": "56_efficiency", "14_lrp_benchmark": "57_lrp_benchmark"}
mod_re = re.compile(r"\bnormxlogit\.(" + "|".join(sorted(MODS, key=len, reverse=True)) + r")\b(?!\.ipynb)")
from_re = re.compile(r"\bfrom normxlogit import (" + "|".join(sorted(MODS, key=len, reverse=True)) + r")\b( as \w+)?")
nb_re = re.compile(r"\b(" + "|".join(sorted(NBS, key=len, reverse=True)) + r")\b")
def fix(text):
    def _from(m):
        parent, leaf = MODS[m[1]].rsplit(".", 1)
        return f"from normxlogit.{parent} import {leaf}" + (m[2] or (f" as {m[1]}" if leaf != m[1] else ""))
    text = from_re.sub(_from, text)
    text = mod_re.sub(lambda m: "normxlogit." + MODS[m[1]], text)
    return nb_re.sub(lambda m: NBS[m[1]], text)
def main():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    for f in files:
        p = ROOT / f
        if not p.suffix in (".ipynb", ".py", ".sh", ".md", ".yml", ".ini", ".toml", ".txt", ".cfg") or "results/" in f or f.startswith("normxlogit/"): continue
        if f == "dev/move_rooms.py": continue
        t = p.read_text(); n = fix(t)
        if p.suffix == ".ipynb":  # default_exp of moved modules
            n = re.sub(r"default_exp (\w+)\\n", lambda m: f"default_exp {MODS.get(m[1], m[1])}\\n", n)
            n = re.sub(r"default_exp (\w+)\"", lambda m: f"default_exp {MODS.get(m[1], m[1])}\"", n)
        if n != t: p.write_text(n); print("rewrote", f)
    for o, nw in NBS.items():
        subprocess.run(["git", "mv", f"nbs/{o}.ipynb", f"nbs/{nw}.ipynb"], cwd=ROOT, check=True)
    for o in MODS:
        subprocess.run(["git", "rm", "-q", f"normxlogit/{o}.py"], cwd=ROOT, check=True)
    for sub in ("model", "attribution", "evidence", "metrics"):
        (ROOT / "normxlogit" / sub).mkdir(exist_ok=True)
if __name__ == "__main__": main()
