"""Explaining generations: normxlogit against inseq 0.7.1 in one process, same weights, same token ids.

Run in the inseq venv (`bash tools/inseq_env.sh`, which builds it and puts the repository on PYTHONPATH). Three parts,
all written to one CSV (default results/generation/benchmark.csv) and a json run record beside it:

  forward   NormXLogit explaining a given continuation (forced
            decoding) of F tokens after an F-token prompt, against one
            plain forward pass of the model over the 2F tokens (logits at every position); round by round
            (--forward-repeats rounds, the two calls alternating
            which goes first; a round is cheap, so the part has more
            rounds than the others, for the interval of the median ratio).
  compare   SmolLM2 answers SQuAD questions in its chat format (greedy, at most G tokens, the final end-of-turn token
            left out); each answer is explained by three pairs of methods, with the same target (the generated token's
            logit) and the same aggregation over the embedding dimensions:
                inseq saliency          = L2 norm of the gradient      = normxlogit grad_l2
                inseq input_x_gradient  = sum of gradient x embedding  = normxlogit gxi (aggregate='sum')
                inseq attention         = mean over layers and heads   = normxlogit attention_last, layer='all', mean
            and by NormXLogit (normxlogit only). Every pair is timed round-robin (which library runs first alternates
            from round to round) and its scores compared (largest absolute difference over the contexts; NaN masks).
  batch     the seconds of normxlogit gxi on the same answers for several prefix-batch sizes (the choice of
            `normxlogit.generation.TOKEN_BUDGET`).

Each row records the load average (os.getloadavg) when it was measured; the run record holds the CPU model, threads,
versions, and the load at the start and the end. inseq 0.7.1 reads the model's pad token as padding wherever it
occurs in a text: SmolLM2's pad token is its end-of-turn token `<|im_end|>`, which every chat prompt contains, so the
run sets the pad token to `<|endoftext|>` (absent from the texts; padding is never used for one sequence at a time).

  bash tools/inseq_env.sh                                    #
                                                             the chapter's run (SmolLM2, 6
                                                             questions, 20 tokens, 3 rounds;
                                                             # 15 rounds of the forward part)
  bash tools/inseq_env.sh bench --model tiny --prompts 2 --new-tokens 4 --repeats 1 --forward-tokens 8 --out /tmp/gb
"""
import argparse, os, time, warnings
from pathlib import Path
import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ["part", "model", "prompt", "n_prompt", "n_generated", "n_tokens", "library", "method", "partner",
           "batch_size",
           "round", "seconds", "cpu_seconds", "load1", "max_abs_diff", "max_abs_score"]
PAIRS = {"saliency": "grad_l2", "input_x_gradient": "gxi", "attention": "attention_last"}


def _load1():
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else float("nan")


def timed(fn):
    "(result, wall seconds, CPU seconds, load average) of fn()."
    l1 = _load1()
    t0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return r, time.perf_counter() - t0, time.process_time() - c0, l1


def load(name):
    "Model and tokenizer; the pad token moved off every token that texts contain (see the module docstring)."
    from normxlogit.model.zoo import load_model, tiny_model
    model, tok = tiny_model("llama", head="causal_lm") if name == "tiny" else load_model(name)
    for cand in ("<|endoftext|>", tok.unk_token):
        if (
            cand is not None
            and cand in tok.get_vocab()
            and tok.convert_tokens_to_ids(cand) not in (tok.eos_token_id, tok.bos_token_id)
        ):
            tok.pad_token = cand; break
    model.config.pad_token_id = model.generation_config.pad_token_id = tok.pad_token_id
    return model.eval(), tok


def questions(n, seed):
    from normxlogit.experiments.generation import generation_prompts
    return generation_prompts(n, seed=seed)


def inseq_scores(out, method, n_tokens):
    "(n_generated, n_tokens) scores from inseq's raw step attributions, aggregated as normxlogit's counterpart."
    a = out.sequence_attributions[0].target_attributions          # (n_tokens, n_generated, ...)
    if a.shape[0] != n_tokens: raise RuntimeError(f"inseq returned {a.shape[0]} token rows for {n_tokens} tokens")
    a = a.float()
    if method == "saliency": s = torch.linalg.vector_norm(a, dim=-1)
    elif method == "input_x_gradient": s = a.sum(-1)
    else: s = a.mean(dim=(-1, -2))
    return s.T.numpy()


def ours(model, tok, prompt, gen, method, batch_size=None):
    from normxlogit.generation import explain_generation
    if method == "attention_last":
        g = explain_generation(model, tok, prompt, method=method, continuation=gen, chat=True, layer="all")
        return g.scores.mean(1)                                     # mean over the layers (NaN where out of context)
    return explain_generation(model, tok, prompt, method=method, continuation=gen,
                              chat=True, batch_size=batch_size).scores[:, 0]


def compare(s_inseq, s_ours):
    "Largest |difference| where either library has a number, and whether the NaN masks agree."
    a, b = np.isnan(s_inseq), np.isnan(s_ours)
    if not np.array_equal(a, b): return float("inf"), float(np.nanmax(np.abs(s_ours)))
    return float(np.abs(s_inseq[~a] - s_ours[~b]).max()), float(np.abs(s_ours[~b]).max())


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", default="smollm2-135m", help="smollm2-135m (or another causal LM name) or tiny")
    p.add_argument("--prompts", type=int, default=6)
    p.add_argument("--new-tokens", type=int, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--forward-tokens", type=int, default=64, help="prompt and continuation length of the forward part")
    p.add_argument("--forward-repeats", type=int, default=15,
                   help="rounds of the forward part (each about two forward passes)")
    p.add_argument("--batch-sizes", default="1,2,3,5,8")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(ROOT / "results" / "generation"))
    a = p.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warnings.filterwarnings("ignore")
    import logging; logging.getLogger("inseq").setLevel(logging.ERROR)
    torch.set_num_threads(a.threads); torch.manual_seed(a.seed)
    import pandas as pd
    import importlib.metadata as md
    import inseq
    from normxlogit.generation import explain_generation, prompt_ids, greedy_continuation, prefix_text
    from normxlogit.attribution.attention import eager_attention
    from normxlogit.profiling import machine_info
    from normxlogit.experiments.common import write_csv, write_json
    from normxlogit.evidence.datasets import load_squad
    started = machine_info("cpu", gmacs=False)
    model, tok = load(a.model)
    rows, base = [], dict(model=a.model)
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)

    # ---- forward: NormXLogit on F + F tokens vs one forward pass over 2F tokens
    F = a.forward_tokens
    def passage():
        "The first SQuAD passage of at least 2F tokens whose first F tokens are a text of exactly those tokens."
        for c in dict.fromkeys(load_squad().context):
            ids = tok(c, add_special_tokens=False)["input_ids"]
            if len(ids) < 2 * F: continue
            try: return ids[:2 * F], prefix_text(tok, ids[:F])
            except ValueError: continue
        raise RuntimeError(f"no passage of {2 * F} tokens")
    ids, text = passage()
    x = torch.tensor([ids])
    def fwd():
        with torch.no_grad(): return model(input_ids=x).logits
    nx = lambda: explain_generation(model, tok, text, method="normxlogit", continuation=ids[F:])
    fwd(); nx()                                                      # warm-up
    for r in range(a.forward_repeats):
        order = [("forward", fwd), ("normxlogit", nx)][:: 1 if r % 2 == 0 else -1]
        sec = {}
        for name, fn in order:
            _, sec[name], c, l1 = timed(fn)
            rows.append(dict(base, part="forward", prompt=-1, n_prompt=F, n_generated=F, n_tokens=2 * F,
                             library="normxlogit" if name == "normxlogit" else "torch", method=name, round=r,
                             seconds=sec[name], cpu_seconds=c, load1=l1))
        print(f"forward round {r}: NormXLogit / forward = {sec['normxlogit'] / sec['forward']:.2f}", flush=True)

    # ---- the generations
    gens, skipped = [], []
    for i, q in enumerate(questions(a.prompts, a.seed)):
        p_ids, _ = prompt_ids(model, tok, q, chat=True)
        gen = greedy_continuation(model, tok, p_ids, a.new_tokens)
        if gen and gen[-1] == tok.eos_token_id: gen = gen[:-1]
        full = tok.decode(p_ids + gen)
        if not gen or tok(full, add_special_tokens=False)["input_ids"] != p_ids + gen:
            skipped.append(dict(prompt=i, why="the text does not tokenise back into the same ids")); continue
        gens.append(dict(i=i, q=q, p_ids=p_ids, gen=gen, input_text=tok.decode(p_ids), full=full))
    print(f"{len(gens)} generations ({len(skipped)} skipped), "
          f"{np.mean([len(g['gen']) for g in gens]):.1f} tokens on average", flush=True)

    # ---- compare: inseq vs normxlogit, round-robin
    from contextlib import nullcontext
    im = inseq.load_model(model, "saliency", tokenizer=tok)
    def run_inseq(g, method):
        ctx = eager_attention(model) if method == "attention" else nullcontext()
        with ctx:
            o = im.attribute(g["input_text"], g["full"], method=method, attributed_fn="logit", show_progress=False)
        return inseq_scores(o, method, len(g["p_ids"]) + len(g["gen"]))
    for g in gens[:1]:                                                # warm-up of every method in both libraries
        for mi, mo in PAIRS.items(): run_inseq(g, mi); ours(model, tok, g["q"], g["gen"], mo)
        ours(model, tok, g["q"], g["gen"], "normxlogit")
    for r in range(a.repeats):
        for g in gens:
            info = dict(base, prompt=g["i"], n_prompt=len(g["p_ids"]), n_generated=len(g["gen"]),
                        n_tokens=len(g["p_ids"]) + len(g["gen"]), round=r)
            for mi, mo in PAIRS.items():
                jobs = [("inseq", mi, mo, lambda: run_inseq(g, mi)),
                        ("normxlogit", mo, mi, lambda: ours(model, tok, g["q"], g["gen"], mo))]
                res = {}
                for lib, meth, partner, fn in jobs[:: 1 if (r + g["i"]) % 2 == 0 else -1]:
                    sc, s, c, l1 = timed(fn)
                    res[lib] = sc
                    rows.append(dict(info, part="compare", library=lib, method=meth, partner=partner,
                                     seconds=s, cpu_seconds=c, load1=l1))
                d, mx = compare(res["inseq"], res["normxlogit"])
                for row in rows[-2:]: row.update(max_abs_diff=d, max_abs_score=mx)
            _, s, c, l1 = timed(lambda: ours(model, tok, g["q"], g["gen"], "normxlogit"))
            rows.append(dict(info, part="compare", library="normxlogit", method="normxlogit",
                             seconds=s, cpu_seconds=c, load1=l1))
        print(f"compare round {r} done", flush=True)

    # ---- batch: seconds of gxi per prefix-batch size
    sizes = [int(b) for b in a.batch_sizes.split(",") if b]
    for r in range(a.repeats):
        for g in gens:
            info = dict(base, part="batch", prompt=g["i"], n_prompt=len(g["p_ids"]), n_generated=len(g["gen"]),
                        n_tokens=len(g["p_ids"]) + len(g["gen"]), round=r)
            for b in (sizes if r % 2 == 0 else sizes[::-1]):
                _, s, c, l1 = timed(lambda: ours(model, tok, g["q"], g["gen"], "gxi", batch_size=b))
                rows.append(dict(info, library="normxlogit", method="gxi", batch_size=b,
                                 seconds=s, cpu_seconds=c, load1=l1))
        print(f"batch round {r} done", flush=True)

    df = pd.DataFrame(rows).reindex(columns=COLUMNS)
    write_csv(out / "benchmark.csv", df)
    write_json(
        out / "benchmark.json",
        dict(
            experiment="generation-benchmark",
            args=vars(a) | {"out": Path(a.out).name},
            machine=started,
            load_end=_load1(),
            inseq=md.version("inseq"),
            captum=md.version("captum"),
            pad_token=tok.pad_token,
            n_generations=len(gens),
            skipped=skipped,
            questions=[g["q"] for g in gens],
            note="pad token set to a token absent from the texts (inseq "
                 "reads the pad token as padding wherever it occurs)",
        ),
    )
    f = df[df.part == "forward"].pivot_table(index="round", columns="method", values="seconds")
    print(f"NormXLogit / forward: median {float((f.normxlogit / f.forward).median()):.2f}")
    c = df[df.part == "compare"]
    t = c.groupby(["library", "method"]).seconds.median()
    print(t.to_string()); print("largest |difference|:", c.groupby("method").max_abs_diff.max().to_string())
    return df


if __name__ == "__main__": main()
