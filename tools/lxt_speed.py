"""Speed of AttnLRP against lxt 2.1 in one run: the setting of Table 8 of the decomposition-attributions paper.

For each input length, real text of exactly that many tokens (`normxlogit.testing.fixed_length_text`)
is explained (score: the logit of the model's top next token at the last position) by six methods, measured round by
round on the same weights and the same token ids, the backward pass plus the token aggregation only (forward excluded):

  main env (this venv, transformers 5):   gxi             plain Gradient x Input
                                          attnlrp         our AttnLRP
                                          (`normxlogit.attribution.lrp.lrp_rules`, hooks; SDPA attention)
                                          attnlrp-rules   our AttnLRP with every attention written with the explicit
                                                          rule blocks of `normxlogit.attribution.lrp_rules`
                                                          (eager, T x T matrices)
  lxt env (transformers 4.57.6, lxt 2.1): gxi             plain Gradient x Input, same weights
                                          lxt-efficient   lxt's `lxt.efficient`
                                          attnLRP patch (modified Gradient x Input)
                                          lxt-explicit    explicit AttnLRP: lxt's
                                                          explicit rules (`lxt.explicit`: epsilon
                                                          rule modules, rms-norm identity,
                                                          uniform/epsilon matmul, softmax
                                                          rule, epsilon addition) wired into
                                                          the Llama modules here, because
                                                          the PyPI release of lxt 2.1 ships no `lxt.explicit.models`;
                                                          relevance is propagated explicitly (seeded with the logit)

The lxt env is one subprocess (`worker`) started once per run; it answers JSON lines on stdin/stdout. Ratios are
always to the GxI of the same environment and the same round (same text), so the two environments compare. Each row
also holds how far that method's relevances are from a reference computed in the same round (our AttnLRP for the
AttnLRP methods, the main GxI for the lxt GxI): max |R - R_ref| / max |R_ref|.

  bash tools/lxt_env.sh speed --model smollm2-135m --lengths 20,130,480 --repeats 10     # builds /tmp/lxtenv if needed
  .venv/bin/python tools/lxt_speed.py run --model tiny --lengths 16,48 --repeats 2 --out /tmp/speed/speed.csv
  .venv/bin/python tools/lxt_speed.py summary results/lrp_speed/speed.csv

The CSV (default results/lrp_speed/speed.csv) is rewritten atomically after each length; a rerun skips lengths it
already holds in full for that model (`--fresh` measures again). Only torch, transformers and lxt are needed by the
worker; everything else is imported lazily in the main env.
"""
import argparse, json, os, subprocess, sys, time, traceback
from contextlib import nullcontext
from functools import partial
from pathlib import Path
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
LXT_ENV = os.environ.get("LXT_ENV", "/tmp/lxtenv")
MAIN_METHODS = ("gxi", "attnlrp", "attnlrp-rules")
LXT_METHODS = ("gxi", "lxt-efficient", "lxt-explicit")
COLUMNS = ["model", "dtype", "threads", "length", "round", "env", "method", "seconds", "ratio_to_gxi", "reference",
           "max_rel_diff"]
MODELS = ("tiny", "smollm2-135m")
DTYPES = {"float32": torch.float32, "float64": torch.float64}
EPS = 1e-8                                         # lxt's default epsilon of its EpsilonRule
# None: lxt's own stabilisers; a number (e.g. 0): every explicit epsilon
STAB = None


# ---------------------------------------------------------------- shared by both environments
def timed_backward(score, e0, explicit=False):
    """(seconds, relevance (T,)) for one input: forward `score(e)` untimed, then
    timed backward + aggregation. Gradient frameworks: R = sum_d e * dscore/de.
    Explicit LRP: the backward *is* the relevance, seeded with the score."""
    e = e0.detach().clone().requires_grad_(True)
    s = score(e)
    t0 = time.perf_counter()
    if explicit:
        g, = torch.autograd.grad(s, e, grad_outputs=s.detach())
        r = g.sum(-1)
    else:
        g, = torch.autograd.grad(s, e)
        r = (e * g).sum(-1)
    dt = time.perf_counter() - t0
    return dt, r.detach()[0]

def last_logit(model, target):
    "Score function: the logit of `target` at the last position (only the last position goes through the LM head)."
    return lambda e: model(inputs_embeds=e, use_cache=False, logits_to_keep=1).logits[0, -1, target]

def _rope(t, cos, sin):
    "Rotary embedding of t (B, H, T, d) with cos/sin (B, T, d) (the rotate-half convention of HF Llama)."
    h = t.shape[-1] // 2
    return t * cos[:, None] + torch.cat((-t[..., h:], t[..., :h]), -1) * sin[:, None]

def _repeat_kv(t, n):
    return t if n == 1 else t.repeat_interleave(n, dim=1)


# ---------------------------------------------------------------- lxt environment (subprocess)
def _stub_torchvision():
    "lxt.efficient.models imports torchvision for its ViT patch only; a stub keeps torchvision out of the lxt env."
    import importlib, types
    try:
        importlib.import_module("torchvision.models.vision_transformer"); return
    except Exception:
        pass
    vt = types.ModuleType("torchvision.models.vision_transformer")
    vt.__getattr__ = lambda n: nn if n == "nn" else type(n, (), {})
    tv, tvm = types.ModuleType("torchvision"), types.ModuleType("torchvision.models")
    tvm.vision_transformer = vt
    tv.models = tvm
    sys.modules.update({"torchvision": tv, "torchvision.models": tvm, "torchvision.models.vision_transformer": vt})

def _config_4x(d):
    """The saved config read by transformers 4: a transformers-5 config keeps rope_theta inside `rope_parameters`,
    which 4.57 ignores (it would silently use 10000), so it is copied back."""
    from transformers import AutoConfig
    cfg = AutoConfig.from_pretrained(d)
    raw = json.loads((Path(d) / "config.json").read_text())
    rp = raw.get("rope_parameters") or {}
    if rp:
        if rp.get("rope_type", "default") != "default":
            raise NotImplementedError(f"rope_type {rp['rope_type']!r}: only default "
                                      "RoPE is carried over to transformers 4")
        cfg.rope_theta = rp["rope_theta"]; cfg.rope_scaling = None
    return cfg

def _x_rmsnorm(mod, x):
    import lxt.explicit.functional as xf
    return xf.rms_norm_identity(x, mod.weight, mod.variance_epsilon)

def _x_mlp(mod, x):
    import lxt.explicit.functional as xf
    return mod.down_proj(xf.mul2(mod.act_fn(mod.gate_proj(x)), mod.up_proj(x)))      # uniform rule on the gate product

def _x_attention(mod, hidden_states, position_embeddings=None, attention_mask=None, **kw):
    import lxt.explicit.functional as xf, lxt.explicit.rules as xr
    B, T, _ = hidden_states.shape
    q, k, v = (p(hidden_states).view(B, T, -1, mod.head_dim).transpose(1, 2)
               for p in (mod.q_proj, mod.k_proj, mod.v_proj))
    cos, sin = position_embeddings
    eps = EPS if STAB is None else STAB
    # RoPE is linear in q, k: epsilon rule
    q = xr.epsilon_lrp(partial(_rope, cos=cos, sin=sin), eps, q)
    k = xr.epsilon_lrp(partial(_rope, cos=cos, sin=sin), eps, k)
    k, v = _repeat_kv(k, mod.num_key_value_groups), _repeat_kv(v, mod.num_key_value_groups)
    kw_eps = {} if STAB is None else dict(epsilon=STAB)
    # epsilon + uniform rule on QK^T
    scores = xf.mul2(xf.matmul(q, k.transpose(-1, -2), **kw_eps), mod.scaling)
    causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    sdt = torch.float64 if q.dtype == torch.float64 else torch.float32
    A = xf.softmax(scores.masked_fill(~causal, float("-inf")), -1, sdt).to(q.dtype)   # softmax rule
    # epsilon + uniform rule on AV
    o = xr.uniform_epsilon_lrp_fn.apply(torch.matmul, 1e-6 if STAB is None else STAB, A, v)
    return mod.o_proj(o.transpose(1, 2).reshape(B, T, -1)), None

def _x_layer(mod, hidden_states, attention_mask=None, position_embeddings=None, **kw):
    import lxt.explicit.functional as xf
    a, _ = mod.self_attn(mod.input_layernorm(hidden_states), position_embeddings=position_embeddings)
    kw_eps = {} if STAB is None else dict(epsilon=STAB)
    h = xf.add2(hidden_states, a, **kw_eps)                                            # epsilon rule on the residuals
    return xf.add2(h, mod.mlp(mod.post_attention_layernorm(h)), **kw_eps)

def explicit_attnlrp(model):
    """Turn a transformers-4 Llama into an explicit AttnLRP model with lxt's explicit rules: lxt's `Composite` puts its
    `EpsilonRule` on every linear layer and `IdentityRule` on the activation; the functional parts (norms, gate product,
    attention, residuals) get lxt's explicit functions through instance-level forwards. The backward of the result
    propagates relevance, not gradient."""
    from lxt.explicit.core import Composite
    import lxt.explicit.rules as xr
    from transformers.activations import SiLUActivation
    if model.config.model_type != "llama": raise NotImplementedError(
        f"explicit wiring is written for Llama, not {model.config.model_type}")
    Composite({nn.Linear: xr.EpsilonRule, SiLUActivation: xr.IdentityRule, nn.SiLU: xr.IdentityRule}).register(model)
    if STAB is not None:
        for mod in model.modules():
            if isinstance(mod, xr.EpsilonRule): mod.epsilon = STAB
    for mod in list(model.modules()):
        fwd = {"LlamaRMSNorm": _x_rmsnorm, "LlamaMLP": _x_mlp, "LlamaAttention": _x_attention,
               "LlamaDecoderLayer": _x_layer}.get(type(mod).__name__)
        if fwd is not None: mod.forward = partial(fwd, mod)
    return model

class LxtEnv:
    """The lxt side: GxI and lxt-efficient on one model (lxt's
    class-level patch switched on and off), lxt-explicit on a copy."""
    def __init__(self, model_dir, dtype="float32", threads=1, stab=None):
        global STAB
        STAB = None if stab is None else float(stab)
        torch.set_num_threads(int(threads))
        import transformers
        from importlib.metadata import version
        from transformers import LlamaForCausalLM
        from transformers.models.llama import modeling_llama as ml
        _stub_torchvision()                             # after transformers, which probes for torchvision on import
        from lxt.efficient import monkey_patch
        from lxt.efficient.models import llama as lxt_llama
        dt = DTYPES[dtype]; cfg = _config_4x(model_dir)
        load = lambda: LlamaForCausalLM.from_pretrained(model_dir, config=cfg, dtype=dt,
                                                        attn_implementation="sdpa").eval()
        self.m = load()
        for p in self.m.parameters(): p.requires_grad_(False)
        slots = [(ml.LlamaMLP, "forward"), (ml.LlamaRMSNorm, "forward"), (nn.Dropout, "forward"),
                 (ml, "eager_attention_forward"), (ml, "ALL_ATTENTION_FUNCTIONS")]
        self.plain = [(o, a, getattr(o, a)) for o, a in slots]
        monkey_patch(ml, lxt_llama.attnLRP, verbose=False)
        self.patched = [(o, a, getattr(o, a)) for o, a in slots]
        changed = [a for (o, a, v), (_, _, w) in zip(self.plain, self.patched) if v is not w]
        if len(changed) < 4: raise RuntimeError(f"lxt's attnLRP patch changed only {changed}")
        self._use(self.plain)
        self.info = dict(transformers=transformers.__version__, torch=torch.__version__, lxt=version("lxt"),
                         rope_theta=getattr(cfg, "rope_theta", None), methods=["gxi", "lxt-efficient"])
        try:
            self.x = explicit_attnlrp(load())
            self.info["methods"].append("lxt-explicit")
        except Exception as ex:                                        # reported, the run goes on without it
            self.x, self.info["explicit_error"] = None, f"{type(ex).__name__}: {ex}"

    @staticmethod
    def _use(state):
        for o, a, v in state: setattr(o, a, v)

    def run(self, method, ids, target):
        ids = torch.tensor([ids])
        if method == "lxt-explicit":
            if self.x is None: raise RuntimeError(self.info.get("explicit_error", "no explicit model"))
            e0 = self.x.get_input_embeddings()(ids)
            with torch.enable_grad(): return timed_backward(last_logit(self.x, target), e0, explicit=True)
        if method not in ("gxi", "lxt-efficient"): raise ValueError(f"unknown lxt-env method {method!r}")
        self._use(self.patched if method == "lxt-efficient" else self.plain)
        try:
            e0 = self.m.get_input_embeddings()(ids)
            with torch.enable_grad(): return timed_backward(last_logit(self.m, target), e0)
        finally:
            self._use(self.plain)

def worker():
    "JSON-lines server for the lxt env: {'op': 'load'|'run'|'quit', ...} -> one JSON reply per line."
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)                                   # anything else printed goes to stderr, never into the protocol
    env = None
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["op"] == "quit": break
            if req["op"] == "load":
                env = LxtEnv(**req["args"]); reply = env.info
            elif req["op"] == "run":
                dt, r = env.run(req["method"], req["ids"], req["target"])
                reply = dict(seconds=dt, relevance=r.double().tolist())
            else: raise ValueError(f"unknown op {req['op']!r}")
        except Exception as ex:
            reply = dict(error=f"{type(ex).__name__}: {ex}", traceback=traceback.format_exc())
        proto.write(json.dumps(reply) + "\n")


# ---------------------------------------------------------------- main environment
class LxtWorker:
    "Client of `worker` running in the lxt venv (stderr goes to `log`)."
    def __init__(self, python, log, threads):
        self.log = Path(log); self.log.parent.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false", OMP_NUM_THREADS=str(threads),
                   PYTHONWARNINGS="ignore")
        self._err = open(self.log, "w")
        self.p = subprocess.Popen([str(python), str(Path(__file__).resolve()), "worker"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self._err, text=True, env=env, cwd=str(ROOT))

    def call(self, **req):
        self.p.stdin.write(json.dumps(req) + "\n"); self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line: raise RuntimeError(f"the lxt worker exited; its log: {self.log}")
        r = json.loads(line)
        if "error" in r: raise RuntimeError(f"lxt worker: {r['error']}\n{r.get('traceback', '')}")
        return r

    def close(self):
        try:
            self.p.stdin.write(json.dumps(dict(op="quit")) + "\n"); self.p.stdin.close(); self.p.wait(timeout=60)
        except Exception:
            self.p.kill()
        self._err.close()

def _rule_block_attention(model):
    """Patch every Llama attention of `model` (transformers 5) with an eager
    attention from `normxlogit.attribution.lrp_rules.attention`; returns an undo."""
    from normxlogit.attribution import lrp_rules as rules
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
    mods = [m for m in model.modules() if type(m).__name__ == "LlamaAttention"]
    def fwd(hidden_states, position_embeddings=None, attention_mask=None, _a=None, **kw):
        B, T, _ = hidden_states.shape
        q, k, v = (p(hidden_states).view(B, T, -1, _a.head_dim).transpose(1, 2)
                   for p in (_a.q_proj, _a.k_proj, _a.v_proj))
        q, k = apply_rotary_pos_emb(q, k, *position_embeddings)
        k, v = _repeat_kv(k, _a.num_key_value_groups), _repeat_kv(v, _a.num_key_value_groups)
        mask = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
        o = rules.attention(q, k, v, mask=mask, scale=_a.scaling, variant="attnlrp")
        return _a.o_proj(o.transpose(1, 2).reshape(B, T, -1)), None
    for m in mods: m.forward = partial(fwd, _a=m)
    def undo():
        for m in mods: m.__dict__.pop("forward", None)
    return undo

class MainEnv:
    "The main side: GxI, our AttnLRP (hooks) and our AttnLRP with rule-block attention, on one model."
    def __init__(self, model):
        self.m = model
        for p in model.parameters(): p.requires_grad_(False)

    def run(self, method, ids, target):
        from normxlogit.attribution.lrp import lrp_rules
        ids = torch.tensor([ids], device=self.m.device)
        e0 = self.m.get_input_embeddings()(ids)
        if method not in MAIN_METHODS: raise ValueError(f"unknown main-env method {method!r}")
        ctx = nullcontext() if method == "gxi" else lrp_rules(self.m, "attnlrp")
        with ctx as c, torch.enable_grad():
            undo = None
            # norm/MLP rules stay; attention: rule blocks instead of q/k/v hooks
            if method == "attnlrp-rules":
                for h in c._hooks: h.remove()
                undo = _rule_block_attention(self.m)
            try:
                return timed_backward(last_logit(self.m, target), e0)
            finally:
                if undo: undo()

def load_main(model, dtype):
    """(model, tokenizer) in the main env: 'tiny' (random tiny Llama,
    non-default RoPE base, long positions) or an offline name."""
    from normxlogit.model.zoo import load_model, tiny_model
    if model == "tiny":
        return tiny_model("llama", "causal_lm", dtype=DTYPES[dtype], max_position_embeddings=2048, rope_theta=50000.0)
    return load_model(model, dtype=DTYPES[dtype], device="cpu")

def save_weights(m, d):
    """Save `m` as safetensors into `d` (once for real models;
    always for the tiny one, which is cheap and deterministic)."""
    from transformers.utils import logging as hl
    d = Path(d)
    if not (d / "config.json").exists() or d.name.startswith("tiny"):
        bars = hl.is_progress_bar_enabled(); hl.disable_progress_bar()
        try: m.save_pretrained(d, safe_serialization=True)
        finally:
            if bars: hl.enable_progress_bar()
    return d

def _rel_diff(r, ref):
    return float((r - ref).abs().max() / ref.abs().max().clamp_min(1e-30))

def _done(df, model, dtype, length, expected):
    if df is None or not len(df): return False
    got = df[(df.model == model) & (df.dtype == dtype) & (df.length == length)]
    return expected <= set(zip(got["round"], got.env, got.method))

def _write(df, out):
    from normxlogit.cache import atomic_write
    atomic_write(out, lambda tmp: df.to_csv(tmp, index=False))

def run(model="tiny", lengths=(20, 130, 480), repeats=5, out=None, threads=1, dtype="float32", lxt="auto",
        lxt_python=None, work=None, fresh=False, progress=True, stab=None):
    """Measure and write the CSV `out` (returned as a DataFrame). lxt: 'auto' (use the lxt env if its python exists),
    'yes' (required) or 'no' (main env only). `stab`: None keeps lxt's explicit stabilisers (1e-8 / 1e-6); a number
    (0 for the exact rules) replaces every epsilon of lxt's explicit rules, for the float64 check that the explicit
    rules and the modified gradient are the same computation."""
    import pandas as pd
    from normxlogit.paths import results_dir
    from normxlogit.testing import fixed_length_text
    if model not in MODELS and not Path(model).is_dir(): raise ValueError(
        f"model must be one of {MODELS} or a local Llama dir")
    if dtype not in DTYPES: raise ValueError(f"dtype must be one of {list(DTYPES)}")
    out = Path(out) if out else results_dir("lrp_speed") / "speed.csv"
    # the CSV has no stab column: never mix the two kinds of rows
    if stab is not None and out.exists() and not fresh:
        raise ValueError(f"stab={stab} writes rows that {out} cannot tell "
                         "apart from its own: pass a new `out` or fresh=True")
    work = Path(work or os.environ.get("LXT_SPEED_WORK", "/tmp/lxt_speed"))
    lxt_python = Path(lxt_python or Path(LXT_ENV) / "bin" / "python")
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if progress else (lambda *a: None)
    torch.set_num_threads(threads)
    use_lxt = lxt == "yes" or (lxt == "auto" and lxt_python.exists())
    if lxt == "yes" and not lxt_python.exists(): raise FileNotFoundError(
        f"{lxt_python} missing: build it with `bash tools/lxt_env.sh build`")
    if not use_lxt:
        print(f"lxt env not used ({'disabled' if lxt == 'no' else 'its python is absent'}): main env only")
        say(f"  (lxt python looked for: {lxt_python}; build it with `bash tools/lxt_env.sh build`)")
    old = None if fresh or not out.exists() else pd.read_csv(out)
    name = Path(model).name if Path(model).is_dir() else model
    t_load = time.perf_counter()
    m, tok = load_main(model, dtype)
    main = MainEnv(m)
    w, meta = None, dict(dtype=dtype, threads=threads, stab=stab, started=time.strftime("%Y-%m-%d %H:%M:%S"),
                         n_cpus=os.cpu_count(),
                         main=dict(torch=torch.__version__, transformers=__import__("transformers").__version__,
                                   attention=m.config._attn_implementation), lengths={})
    try:
        if use_lxt:
            d = save_weights(m, work / f"{name}-{dtype}")
            w = LxtWorker(lxt_python, work / "worker.log", threads)
            meta["lxt_env"] = w.call(op="load", args=dict(model_dir=str(d), dtype=dtype, threads=threads, stab=stab))
            if "explicit_error" in meta["lxt_env"]: print("lxt-explicit unavailable: "
                                                          f"{meta['lxt_env']['explicit_error']}")
        say(f"loaded {name} ({dtype}) in {time.perf_counter() - t_load:.0f} s")
        envs = [("main", MAIN_METHODS)] + ([("lxt", tuple(meta["lxt_env"]["methods"]))] if w else [])
        rows = [] if old is None else old.to_dict("records")
        for L in lengths:
            expected = {(r, e, mt) for r in range(repeats) for e, ms in envs for mt in ms}
            if _done(old, name, dtype, L, expected):
                say(f"length {L}: already measured, skipped"); continue
            rows = [r for r in rows if not (r["model"] == name and r["dtype"] == dtype and r["length"] == L)]
            t0, load0 = time.perf_counter(), os.getloadavg()[0]
            for rnd in range(-1, repeats):                            # round -1: warm-up, not recorded
                ids = tok(fixed_length_text(tok, L, offset=29 * (rnd + 1)), verbose=False)["input_ids"]
                assert len(ids) == L, (len(ids), L)
                with torch.no_grad():
                    target = int(m(torch.tensor([ids]), use_cache=False, logits_to_keep=1).logits[0, -1].argmax())
                res = {}
                order = envs if rnd % 2 == 0 else envs[::-1]          # alternate which env goes first
                for env, methods in order:
                    k = (rnd + 1) % len(methods)
                    for mt in methods[k:] + methods[:k]:              # rotate the method order round by round
                        if env == "main": dt, r = main.run(mt, ids, target); r = r.double().cpu()
                        else:
                            a = w.call(op="run", method=mt, ids=ids, target=target)
                            dt, r = a["seconds"], torch.tensor(a["relevance"], dtype=torch.float64)
                        res[env, mt] = (dt, r)
                if rnd < 0: continue
                for (env, mt), (dt, r) in res.items():
                    ref = None if (env, mt) in (("main", "gxi"), ("main", "attnlrp")) else \
                          ("main", "gxi") if mt == "gxi" else ("main", "attnlrp")
                    rows.append(dict(model=name, dtype=dtype, threads=threads, length=L, round=rnd, env=env, method=mt,
                                     seconds=dt, ratio_to_gxi=dt / res[env, "gxi"][0],
                                     reference=":".join(ref) if ref else "",
                                     max_rel_diff=_rel_diff(r, res[ref][1]) if ref else float("nan")))
            df = pd.DataFrame(rows, columns=COLUMNS)
            _write(df, out)
            meta["lengths"][str(L)] = dict(wall_s=round(time.perf_counter() - t0, 1), load_avg_before=load0,
                                           load_avg_after=os.getloadavg()[0])
            say(f"length {L}: {repeats} rounds in {time.perf_counter() - t0:.0f} s, load average {load0:.1f} -> {out}")
        meta["command"] = (
            " ".join(["tools/lxt_speed.py"] + sys.argv[1:]).replace(str(Path(LXT_ENV)), "$LXT_ENV")  # no machine path
            if sys.argv and sys.argv[0].endswith("lxt_speed.py")
            else "run()"
        )
        from normxlogit.cache import atomic_write                # speed.json: {model: what the last run of it used}
        mp = out.with_suffix(".json"); allm = json.loads(mp.read_text()) if mp.exists() else {}
        prev = allm.get(name, {}).get("lengths", {}) if not fresh else {}
        meta["lengths"] = {**prev, **meta["lengths"]}; allm[name] = meta
        atomic_write(mp, lambda tmp: Path(tmp).write_text(json.dumps(allm, indent=1)))
    finally:
        if w: w.close()
    return pd.DataFrame(rows, columns=COLUMNS)

LABELS = {("main", "gxi"): "GxI (main env)", ("main", "attnlrp"): "AttnLRP, ours (hooks)",
          ("main", "attnlrp-rules"): "AttnLRP, ours (rule blocks, explicit attention)", ("lxt", "gxi"): "GxI (lxt env)",
          ("lxt", "lxt-efficient"): "AttnLRP, lxt efficient", ("lxt", "lxt-explicit"): "AttnLRP, lxt explicit rules"}

def summary(df):
    """Per model/length/method: median ms, median ratio to the GxI of the same env and round, max relevance difference
    to the reference, and the per-round speedups of Table 8 (explicit / efficient)."""
    import pandas as pd
    order = {k: i for i, k in enumerate(LABELS)}
    df = df.assign(_o=[order.get((e, m), len(order))
                       for e, m in zip(df.env, df.method)]).sort_values(["model", "length", "_o"])
    g = df.groupby(["model", "length", "env", "method"], sort=False)
    t = g.agg(median_ms=("seconds", lambda s: 1000 * s.median()), ratio_to_gxi=("ratio_to_gxi", "median"),
              max_rel_diff=("max_rel_diff", "max"), rounds=("seconds", "size")).reset_index()
    t.insert(2, "label", [LABELS.get((e, m), f"{e}:{m}") for e, m in zip(t.env, t.method)])
    w = df.pivot_table(index=["model", "length", "round"], columns=["env", "method"], values="ratio_to_gxi")
    sp = pd.DataFrame(index=w.index)
    pairs = {"lxt explicit / lxt efficient": (("lxt", "lxt-explicit"), ("lxt", "lxt-efficient")),
             "lxt explicit / ours": (("lxt", "lxt-explicit"), ("main", "attnlrp")),
             "lxt efficient / ours": (("lxt", "lxt-efficient"), ("main", "attnlrp")),
             "our rule blocks / ours": (("main", "attnlrp-rules"), ("main", "attnlrp"))}
    for k, (a, b) in pairs.items():
        if a in w.columns and b in w.columns: sp[k] = w[a] / w[b]          # ratios of same-round GxI ratios
    return t, sp.groupby(["model", "length"]).median()

def print_summary(df):
    import pandas as pd
    t, sp = summary(df)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print("median per input (backward + aggregation); ratio = "
              "median per-round time / GxI of the same env and round")
        print(t.drop(columns=["env", "method"]).to_string(index=False, float_format=lambda x: f"{x:.3g}"))
        if len(sp.columns):
            print("\nspeedups (median over rounds of per-round ratios; "
                  "Table 8's 'Speedup' is lxt explicit / efficient)")
            print(sp.to_string(float_format=lambda x: f"{x:.2f}"))

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="measure (main env; starts the lxt worker)")
    r.add_argument("--model", default="tiny", help=f"{' | '.join(MODELS)} | a local Llama dir")
    r.add_argument("--lengths", default="20,130,480", help="comma-separated token counts")
    r.add_argument("--repeats", type=int, default=5,
                   help="recorded rounds per length (one different text each), after one warm-up")
    r.add_argument("--out", default=None, help="CSV (default results/lrp_speed/speed.csv)")
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--dtype", default="float32", choices=list(DTYPES))
    r.add_argument("--lxt", default="auto", choices=["auto", "yes", "no"],
                   help="use the lxt env (auto: if its python exists)")
    r.add_argument("--lxt-python", default=None,
                   help=f"python of the lxt venv (default $LXT_ENV/bin/python, {LXT_ENV})")
    r.add_argument("--work", default=None, help="saved weights + worker log (default /tmp/lxt_speed)")
    r.add_argument("--fresh", action="store_true", help="measure every length again")
    r.add_argument("--stab", type=float, default=None,
                   help="replace every epsilon of lxt's explicit rules (0: exact rules; for float64 checks)")
    s = sub.add_parser("summary", help="print the medians of a CSV"); s.add_argument("csv")
    sub.add_parser("worker", help="(internal) the lxt-env side, JSON lines on stdin/stdout")
    a = ap.parse_args(argv)
    if a.cmd == "worker": return worker()
    if a.cmd == "summary":
        import pandas as pd
        return print_summary(pd.read_csv(a.csv))
    df = run(a.model, [int(x) for x in a.lengths.split(",")], a.repeats, a.out, a.threads, a.dtype, a.lxt, a.lxt_python,
             a.work, a.fresh, stab=a.stab)
    print_summary(df)

if __name__ == "__main__":
    main()
