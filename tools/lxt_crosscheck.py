"""Cross-check normxlogit's `lrp`/`attnlrp` against lxt 2.1 (Achtibat et al.'s AttnLRP/CP-LRP) on tiny models.

lxt 2.1 needs transformers 4.x, so this runs in two environments (see tools/lxt_env.sh):
  1. main venv:  python tools/lxt_crosscheck.py make DIR      (tiny float64 models + our relevances -> DIR)
  2. lxt venv:   python tools/lxt_crosscheck.py lxt DIR {lrp|attnlrp}
     (lxt relevances, same weights -> DIR/lxt_VARIANT.json)
  3. main venv:  python tools/lxt_crosscheck.py compare DIR OUT.json   (max |diff| per model/variant)
"""
import json, sys, os
from pathlib import Path
import torch
import torch.nn  # noqa

CASES = [("llama", "causal_lm"), ("bert", "masked_lm")]
TEXT = {"llama": "the keys to the cabinet are on the table", "bert": "the keys to the [MASK] are on the table"}

def make(d):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import normxlogit.attribution.lrp as L
    from normxlogit.model.batch import make_batch
    from normxlogit.model.zoo import tiny_model
    d = Path(d); d.mkdir(parents=True, exist_ok=True); ours = {}
    for arch, head in CASES:
        m, t = tiny_model(arch, head, dtype=torch.float64, attn_implementation="eager")
        with torch.no_grad():
            for n, p in m.named_parameters():
                if n.endswith("bias"): p.zero_()
        m.save_pretrained(d / arch, safe_serialization=True)
        b = make_batch(m, t, [TEXT[arch]])
        ours[arch] = dict(
            input_ids=b.input_ids[0].tolist(),
            position=int(b.positions[0]),
            target=int(b.targets[0, 0]),
            model_type=m.config.model_type,
            **{v: L.lrp_relevance(b, v, embeddings="partial")[0, 0].tolist() for v in L.VARIANTS},
        )
    (d / "ours.json").write_text(json.dumps(ours))

def run_lxt(d, variant):
    import types, importlib, transformers
    for name in ("llama", "bert", "gpt2", "gemma3", "qwen2", "qwen3"):       # import before the torchvision stub below
        importlib.import_module(f"transformers.models.{name}.modeling_{name}")
    # lxt imports torchvision for its ViT patch only: a stub module whose attributes are dummy classes
    vt = types.ModuleType("torchvision.models.vision_transformer")
    vt.__getattr__ = lambda n: torch.nn if n == "nn" else type(n, (), {})
    tv, tvm = types.ModuleType("torchvision"), types.ModuleType("torchvision.models")
    tvm.vision_transformer = vt
    tv.models = tvm
    sys.modules.update({"torchvision": tv, "torchvision.models": tvm, "torchvision.models.vision_transformer": vt})
    from lxt.efficient import monkey_patch
    from lxt.efficient.models import llama as lxt_llama, bert as lxt_bert
    from transformers.models.llama import modeling_llama
    from transformers.models.bert import modeling_bert
    pmap = {"attnlrp": "attnLRP", "lrp": "cp_LRP"}[variant]
    d = Path(d); ours = json.loads((d / "ours.json").read_text()); out = {"transformers": transformers.__version__}
    for arch, cls, mod, maps in [("llama", "LlamaForCausalLM", modeling_llama, lxt_llama),
                                 ("bert", "BertForMaskedLM", modeling_bert, lxt_bert)]:
        o = ours[arch]
        if not hasattr(maps, pmap): out[arch] = f"lxt 2.1 has no {pmap} map for {arch}"; continue
        try:
            monkey_patch(mod, getattr(maps, pmap), verbose=False)        # class-level patch: one variant per process
            m = getattr(transformers, cls).from_pretrained(d / arch, torch_dtype=torch.float64,
                                                           attn_implementation="eager").eval()
            ids = torch.tensor([o["input_ids"]])
            e = m.get_input_embeddings()(ids).detach().requires_grad_(True)
            logit = m(inputs_embeds=e).logits[0, o["position"], o["target"]]
            logit.backward()
            out[arch] = dict(relevance=(e * e.grad).sum(-1)[0].tolist(), logit=logit.item())
        except Exception as ex:
            out[arch] = f"{type(ex).__name__}: {ex}"
    (d / f"lxt_{variant}.json").write_text(json.dumps(out))

def compare(d, out_path):
    d = Path(d); ours = json.loads((d / "ours.json").read_text())
    lx = {v: json.loads((d / f"lxt_{v}.json").read_text()) for v in ("lrp", "attnlrp")}
    rows = []
    for arch in ours:
        for v in ("lrp", "attnlrp"):
            r = lx[v][arch]
            if isinstance(r, str): rows.append(dict(model=arch, variant=v, error=r)); continue
            a, b = torch.tensor(ours[arch][v]), torch.tensor(r["relevance"])
            rows.append(dict(model=arch, variant=v, max_abs_diff=(a - b).abs().max().item(),
                             max_abs_rel=a.abs().max().item(),
                             sum_ours=a.sum().item(), sum_lxt=b.sum().item(), logit=r["logit"]))
    Path(out_path).write_text(json.dumps(dict(transformers_lxt_env=lx["lrp"]["transformers"], lxt="2.1", rows=rows,
                                              how="bash tools/lxt_env.sh (separate venv "
                                                  "with transformers 4.57.6 + lxt 2.1)"), indent=1))
    print(json.dumps(rows, indent=1))

if __name__ == "__main__":
    cmd = sys.argv[1]
    {"make": lambda: make(sys.argv[2]), "lxt": lambda: run_lxt(sys.argv[2], sys.argv[3]),
     "compare": lambda: compare(sys.argv[2], sys.argv[3])}[cmd]()
