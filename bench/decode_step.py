#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times one decode step of an LLM in eager PyTorch and in a CUDA graph, with
and without bwgemm preloaded, each in its own process: every layer of the
model (RMSNorm; the q, k, v, o, gate, up and down projections one by one, as
Hugging Face transformers runs Llama and Qwen, where Phi-3's own code fuses q,
k, v and gate, up; attention over a KV cache of 512 tokens; SiLU gating;
residuals) and the lm_head, bf16, random weights of the model's true sizes
and layer count (so the weights come from memory, as they do in a model).

usage: bench/decode_step.py LIBBWGEMM [--model NAME ...] [--batch N ...] [--steps N]
       bench/decode_step.py --kernels MODEL [--batch N] [--steps N]
       (LIBBWGEMM: path of libbwgemm.so.0; needs PyTorch built for CUDA 13 and
       as much GPU memory as the model's weights: 15-26 GB)

Prints one line per run (median ms per step, eager and graph, and the paths
bwgemm's log shows for the GEMMs that reached it) and a summary per model and
batch: the step under bwgemm over the plain step. Plain and bwgemm runs
alternate, forwards then backwards, so that clock drift as the GPU warms
favours neither.

--kernels MODEL runs one configuration in this process (preload the library
yourself to see it under bwgemm) and prints, after the timed steps, where the
CUDA graph's time goes (PyTorch's profiler over three replays): one layer's
kernels in order, each with its median time over the layers and the median
gap before it (from the previous kernel's end to its start), then the
kernels after the last layer, and the totals per step. A GEMM's time here is
its time among the model's other kernels, which a bench of back-to-back
GEMMs does not show. The profiler's tracing may widen the gaps.
"""

import argparse
import json
import os
import sys

from preload_run import run_child

# hidden, intermediate, layers, query heads, key/value heads, head size,
# vocabulary, q/k/v bias (each from the model's config.json)
MODELS = {
    "llama-3-8b": (4096, 14336, 32, 32, 8, 128, 128256, False),
    "llama-2-13b": (5120, 13824, 40, 40, 40, 128, 32000, False),
    "qwen2.5-7b": (3584, 18944, 28, 28, 4, 128, 152064, True),
    "phi-3-mini": (3072, 8192, 32, 32, 32, 96, 32064, False),
}
CACHE_TOKENS = 512


def child(model, batch, steps, kernels=False):
    import torch
    import torch.nn.functional as F

    hidden, inter, layers, heads, kv_heads, head, vocab, qkv_bias = MODELS[model]
    torch.manual_seed(0)
    dev, dt = "cuda", torch.bfloat16

    def weight(rows, cols):
        return torch.randn(rows, cols, device=dev, dtype=dt) * cols**-0.5

    def bias(rows):
        return torch.randn(rows, device=dev, dtype=dt) * 0.02 if qkv_bias else None

    stack = []
    for _ in range(layers):
        stack.append({
            "q": weight(heads * head, hidden), "k": weight(kv_heads * head, hidden),
            "v": weight(kv_heads * head, hidden), "o": weight(hidden, heads * head),
            "qb": bias(heads * head), "kb": bias(kv_heads * head), "vb": bias(kv_heads * head),
            "gate": weight(inter, hidden), "up": weight(inter, hidden),
            "down": weight(hidden, inter),
            "n1": torch.ones(hidden, device=dev, dtype=dt),
            "n2": torch.ones(hidden, device=dev, dtype=dt),
            "kc": torch.randn(batch, kv_heads, CACHE_TOKENS, head, device=dev, dtype=dt),
            "vc": torch.randn(batch, kv_heads, CACHE_TOKENS, head, device=dev, dtype=dt),
        })
    lm_head = weight(vocab, hidden)
    x0 = torch.randn(batch, 1, hidden, device=dev, dtype=dt)

    def rms_norm(x, w):
        v = x.float().pow(2).mean(-1, keepdim=True)
        return (x.float() * torch.rsqrt(v + 1e-5)).to(dt) * w

    def step(x):
        for w in stack:
            h = rms_norm(x, w["n1"])
            q = F.linear(h, w["q"], w["qb"]).view(batch, 1, heads, head).transpose(1, 2)
            k = F.linear(h, w["k"], w["kb"]).view(batch, 1, kv_heads, head).transpose(1, 2)
            v = F.linear(h, w["v"], w["vb"]).view(batch, 1, kv_heads, head).transpose(1, 2)
            # The new token's key and value join the cache's (not stored: the
            # step stays the same from run to run).
            k = torch.cat([w["kc"], k], dim=2)
            v = torch.cat([w["vc"], v], dim=2)
            a = F.scaled_dot_product_attention(q, k, v, enable_gqa=kv_heads != heads)
            x = x + F.linear(a.transpose(1, 2).reshape(batch, 1, heads * head), w["o"])
            h = rms_norm(x, w["n2"])
            x = x + F.linear(F.silu(F.linear(h, w["gate"])) * F.linear(h, w["up"]), w["down"])
        return F.linear(x, lm_head)

    def timed(run, n):
        times = []
        for _ in range(n):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            run()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
        return sorted(times)[n // 2]

    with torch.no_grad():
        for _ in range(3):
            logits = step(x0)
        torch.cuda.synchronize()
        eager = timed(lambda: step(x0), steps)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            step(x0)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = step(x0)
        graph.replay()
        torch.cuda.synchronize()
        graphed = timed(graph.replay, steps)
        # The graph computes what eager does (the same kernels, in order).
        diff = (out.float() - logits.float()).abs().max().item()
        if kernels:
            print_graph_kernels(torch, graph.replay, layers)
    print(json.dumps({"eager": eager, "graph": graphed, "graph_vs_eager_max_diff": diff,
                      "logit_rms": logits.float().pow(2).mean().sqrt().item()}))


def print_graph_kernels(torch, replay, layers, replays=3):
    """One layer's kernels in order (the position's median time and gap over
    the layers and replays), the kernels after the layers, and totals."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            replay()
        torch.cuda.synchronize()
    spans = sorted((e.time_range.start, e.time_range.end, e.name) for e in prof.events()
                   if e.device_type == torch.autograd.DeviceType.CUDA)
    per_step = len(spans) // replays
    if per_step == 0 or len(spans) % replays:
        sys.exit(f"decode_step.py: the profiler saw {len(spans)} kernels in {replays} replays")
    names = [s[2] for s in spans[:per_step]]
    # The layer's length: the shortest period the first `layers` repeats share.
    period = next((p for p in range(1, per_step // layers + 1)
                   if all(names[i] == names[i + p] for i in range((layers - 1) * p))), None)
    if period is None:
        sys.exit("decode_step.py: the layers' kernels do not repeat")

    def median(v):
        return sorted(v)[len(v) // 2]

    def row(positions):
        times, gaps = [], []
        for r in range(replays):
            for i in positions:
                start, end, _ = spans[r * per_step + i]
                times.append(end - start)
                if i > 0:
                    gaps.append(start - spans[r * per_step + i - 1][1])
        return median(times), median(gaps) if gaps else 0.0

    print(f"one layer of {layers} ({period} kernels), us: median time, median gap before it")
    for i in range(period):
        t, g = row([layer * period + i for layer in range(layers)])
        print(f"  {t:8.2f} {g:6.2f}  {names[i][:100]}")
    print(f"after the layers ({per_step - layers * period} kernels):")
    for i in range(layers * period, per_step):
        t, g = row([i])
        print(f"  {t:8.2f} {g:6.2f}  {names[i][:100]}")
    busy = sum(e - s for s, e, _ in spans) / replays
    wall = median([spans[(r + 1) * per_step - 1][1] - spans[r * per_step][0] for r in range(replays)])
    print(f"per step: {per_step} kernels, {busy / 1000:.3f} ms busy, first start to last end "
          f"{wall / 1000:.3f} ms")


def run(model, batch, steps, lib):
    return run_child(__file__, ["--child", model, "--batch", str(batch), "--steps", str(steps)],
                     lib, f"{model} at batch {batch}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib", nargs="?")
    parser.add_argument("--model", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--batch", nargs="+", type=int, default=[1])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--child")
    parser.add_argument("--kernels", choices=list(MODELS), metavar="MODEL")
    args = parser.parse_args()
    if args.child or args.kernels:
        return child(args.child or args.kernels, args.batch[0], args.steps, bool(args.kernels))
    if not args.lib:
        parser.error("the path of libbwgemm.so.0 is required")
    lib = os.path.abspath(args.lib)
    for model in args.model:
        for batch in args.batch:
            configs = ["", lib]
            times = {}
            for order in (configs, configs[::-1]):
                for preload in order:
                    r = run(model, batch, args.steps, preload)
                    times.setdefault(bool(preload), []).append(r)
                    paths = ", ".join(f"{k} x{v}" for k, v in sorted(r["paths"].items())) or "-"
                    print(f"{model} batch {batch} {'bwgemm' if preload else 'plain '}: eager "
                          f"{r['eager']:.3f} ms, graph {r['graph']:.3f} ms; logit rms "
                          f"{r['logit_rms']:.4f}; decisions: {paths}", flush=True)
            mean = {k: {m: sum(r[m] for r in v) / len(v) for m in ("eager", "graph")}
                    for k, v in times.items()}
            print(f"summary: {model} batch {batch}: eager {mean[False]['eager']:.3f} -> "
                  f"{mean[True]['eager']:.3f} ms ({mean[False]['eager'] / mean[True]['eager']:.3f}x), "
                  f"graph {mean[False]['graph']:.3f} -> {mean[True]['graph']:.3f} ms "
                  f"({mean[False]['graph'] / mean[True]['graph']:.3f}x)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
