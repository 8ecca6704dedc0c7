#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times GPT-2's three lm_head GEMMs of one training step (8 x 1024 tokens,
hidden 768, bf16) as PyTorch runs them, at the true vocabulary 50257 and the
padded 50304: eager (cuBLAS, or bwgemm when this process has it preloaded) and,
with --compile, torch.compile(mode="max-autotune-no-cudagraphs") at 50257
(Triton GEMM templates; autotuning takes about a minute for the three calls).

usage: bench/gpt2_lm_head.py [--compile] [--reps N]
       LD_PRELOAD=libbwgemm.so.0 bench/gpt2_lm_head.py      (bwgemm, eager)

For each call, its modes and the eager call at 50304 take turns rep by rep,
so all run under the same GPU clock (a GPU at its power limit clocks down on
fast calls and up on slow ones; timed one after another, the 50257 calls ran
up to a third faster than beside the 50304 ones). Prints one line per call
and mode: median ms over N timed calls (CUDA events, inputs gaussian),
TFLOP/s, and throughput over the eager 50304 call of the same rounds. bwgemm
sends the aligned 50304 calls to cuBLAS, so that column compares every mode
with cuBLAS on the padded call, with or without the preload; under the
preload, the compiled graph's own aten GEMM choice runs through bwgemm too:
run --compile without the preload to time torch.compile as its users get it.
"""

import argparse
import statistics

import torch

TOKENS, HIDDEN = 8 * 1024, 768


def calls(vocab):
    """The three GEMMs as autograd runs them, with their operands."""
    torch.manual_seed(0)
    dev, dt = "cuda", torch.bfloat16
    x = torch.randn(TOKENS, HIDDEN, device=dev, dtype=dt)
    w = torch.randn(vocab, HIDDEN, device=dev, dtype=dt) * 0.02
    g = torch.randn(TOKENS, vocab, device=dev, dtype=dt)
    return [
        ("logits x @ W^T", lambda x, w, g: x @ w.t(), (x, w, g)),
        ("weight gradient g^T @ x", lambda x, w, g: g.t() @ x, (x, w, g)),
        ("input gradient g @ W", lambda x, w, g: g @ w, (x, w, g)),
    ]


def interleaved_ms(runs, reps):
    """Median ms of each (fn, args) in `runs`, the runs taking turns rep by rep."""
    for fn, args in runs:
        for _ in range(3):
            fn(*args)
    torch.cuda.synchronize()
    times = [[] for _ in runs]
    for rep in range(reps):
        # Each run goes first in turn.
        for i in range(len(runs)):
            j = (rep + i) % len(runs)
            (fn, args), t = runs[j], times[j]
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*args)
            end.record()
            end.synchronize()
            t.append(start.elapsed_time(end))
    return [statistics.median(t) for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="also time torch.compile max-autotune")
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}")
    flops = 2.0 * TOKENS * HIDDEN
    for (name, fn, odd), (_, _, padded) in zip(calls(50257), calls(50304)):
        runs = [("50257", "eager", fn, odd, 50257)]
        if args.compile:
            compiled = torch.compile(fn, mode="max-autotune-no-cudagraphs")
            runs.append(("50257", "compiled", compiled, odd, 50257))
        runs.append(("50304", "eager", fn, padded, 50304))
        ms = interleaved_ms([(f, a) for _, _, f, a, _ in runs], args.reps)
        reference = flops * 50304 / ms[-1]
        for (vocab, mode, _, _, v), t in zip(runs, ms):
            rate = flops * v / t
            print(f"vocab {vocab} {name:26s} {mode:8s} {t:7.3f} ms {rate / 1e9:7.1f} TFLOP/s "
                  f"{rate / reference:5.2f}x eager 50304")


if __name__ == "__main__":
    main()
