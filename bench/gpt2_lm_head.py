#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times GPT-2's three lm_head GEMMs of one training step (8 x 1024 tokens,
hidden 768, bf16) as PyTorch runs them, at the true vocabulary 50257 and the
padded 50304: eager (cuBLAS, or bwgemm when this process has it preloaded) and,
with --compile, torch.compile(mode="max-autotune-no-cudagraphs") (Triton GEMM
templates; autotuning takes about a minute for the three calls).

usage: bench/gpt2_lm_head.py [--compile] [--reps N]
       LD_PRELOAD=libbwgemm.so.0 bench/gpt2_lm_head.py      (bwgemm, eager)

Prints one line per call and mode: median ms over N timed calls (CUDA events,
inputs gaussian) and TFLOP/s.
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


def median_ms(fn, args, reps):
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*args)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compile", action="store_true", help="also time torch.compile max-autotune")
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}")
    flops = 2.0 * TOKENS * HIDDEN
    for vocab in (50257, 50304):
        for name, fn, operands in calls(vocab):
            modes = [("eager", fn)]
            if args.compile and vocab == 50257:
                modes.append(("compiled", torch.compile(fn, mode="max-autotune-no-cudagraphs")))
            for mode, f in modes:
                ms = median_ms(f, operands, args.reps)
                print(f"vocab {vocab} {name:26s} {mode:8s} {ms:7.3f} ms {flops * vocab / ms / 1e9:7.1f} TFLOP/s")


if __name__ == "__main__":
    main()
