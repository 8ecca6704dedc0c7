#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times an eager PyTorch training step of a GPT-2 124M-sized model (12 layers,
hidden 768, 12 heads, 1024 tokens, batch 8, bf16 autocast, AdamW) with the
true vocabulary 50257 and nanoGPT's padded 50304, with and without bwgemm
preloaded, each in its own process.

usage: bench/gpt2_step.py LIBBWGEMM [--steps N]
       bench/gpt2_step.py --kernels VOCAB [--steps N]
       bench/gpt2_step.py --log-check LIBBWGEMM
       (LIBBWGEMM: path of libbwgemm.so.0; needs PyTorch built for CUDA 13)

Prints one line per run (median ms per step over N steps after warm-up, and
the paths bwgemm's log shows for the GEMMs that reached it) and a summary:
the 50257 step under bwgemm against the plain 50304 step. The four
configurations run twice, forwards then backwards, so that clock drift as the
GPU warms does not favour one of them.

--kernels VOCAB runs one configuration in this process (preload the library
yourself to see it under bwgemm) and prints, after the timed steps, the GPU
time per step of its kernels, the largest first (PyTorch's profiler, three
steps): where a slow step's time goes.

--log-check runs one step (vocabulary 50257) under the library with every call
logged and checks that every GEMM PyTorch issued reached bwgemm: the number of
aten GEMM operators the PyTorch profiler counted equals the number of calls
in bwgemm's log, and the forward Linear layers' cublasLtMatmul calls are among
them. Exits 77 (skipped) without PyTorch or a GPU.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from preload_run import run_child

# aten operators that each make one cuBLAS or cuBLASLt GEMM call on CUDA.
GEMM_OPS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_addmm_activation"}
LOGGED_CALL = re.compile(r"^bwgemm: (cublas\w+) .* -> ")


def child(vocab, steps, log_check=False, kernels=False):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class Block(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.heads = heads
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
            q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
            return x + self.out(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))

    class Gpt(nn.Module):
        def __init__(self, vocab, d=768, layers=12, heads=12, context=1024):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(context, d)
            self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
            self.ln_f = nn.LayerNorm(d)
            # GPT-2's initialisation of the (tied) embedding: logits of a sane size.
            nn.init.normal_(self.wte.weight, std=0.02)

        def forward(self, idx, targets):
            x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
            for block in self.blocks:
                x = block(x)
            # The lm_head shares the embedding (no bias): F.linear -> cublasGemmEx.
            logits = F.linear(self.ln_f(x), self.wte.weight)
            return F.cross_entropy(logits.view(-1, logits.shape[-1]).float(), targets.view(-1))

    torch.manual_seed(0)
    model = Gpt(vocab).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, fused=True)
    idx = torch.randint(0, 50257, (8, 1024), device="cuda")
    targets = torch.randint(0, 50257, (8, 1024), device="cuda")
    def train_step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(idx, targets)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    if log_check:
        return count_gemms(torch, train_step)
    times = []
    for step in range(5 + steps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        loss = train_step()
        end.record()
        torch.cuda.synchronize()
        if step >= 5:
            times.append(start.elapsed_time(end))
    times.sort()
    if kernels:
        print_kernel_times(torch, train_step)
    print(json.dumps({"vocab": vocab, "ms": times[len(times) // 2], "loss": float(loss)}))


def print_kernel_times(torch, train_step, steps=3, top=15):
    """GPU time per step of each kernel over `steps` profiled steps."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            train_step()
        torch.cuda.synchronize()
    rows = []
    for a in prof.key_averages():
        us = getattr(a, "device_time_total", None)
        if us is None:
            us = a.cuda_time_total
        if us > 0:
            rows.append((us / steps, a.count // steps, a.key))
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    print(f"GPU time per step: {total / 1000:.2f} ms in {len(rows)} kernels; the largest:")
    for us, count, name in rows[:top]:
        print(f"  {us / 1000:7.3f} ms  x{count:<4d} {name[:110]}")


def count_gemms(torch, train_step):
    """One step after a warm-up one: the aten GEMM operators the profiler saw
    and the calls bwgemm logged (BWGEMM_LOG=2 to BWGEMM_LOG_FILE) meanwhile."""
    log_path = os.environ["BWGEMM_LOG_FILE"]
    train_step()
    torch.cuda.synchronize()
    offset = os.path.getsize(log_path)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        train_step()
        torch.cuda.synchronize()
    ops = {}
    for event in prof.events():
        if event.name in GEMM_OPS:
            ops[event.name] = ops.get(event.name, 0) + 1
    logged = {}
    with open(log_path, "rb") as f:
        f.seek(offset)
        for line in f.read().decode(errors="replace").splitlines():
            if m := LOGGED_CALL.match(line):
                logged[m.group(1)] = logged.get(m.group(1), 0) + 1
    print(json.dumps({"aten": ops, "logged": logged}))


def log_check(lib):
    try:
        import torch
    except ImportError:
        print("SKIP: torch is not installed")
        return 77
    if not torch.cuda.is_available():
        print("SKIP: no GPU")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "bwgemm.log")
        open(log, "w").close()
        env = {k: v for k, v in os.environ.items() if not k.startswith("BWGEMM_")}
        env.update(LD_PRELOAD=lib, BWGEMM_LOG="2", BWGEMM_LOG_FILE=log)
        out = subprocess.run([sys.executable, __file__, "--child", "50257", "--log-check-child"],
                             env=env, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL: the step under bwgemm exited {out.returncode}:\n{out.stderr}")
        return 1
    r = json.loads(out.stdout.strip().splitlines()[-1])
    gemms, calls = sum(r["aten"].values()), sum(r["logged"].values())
    print(f"one GPT-2 step (vocabulary 50257): aten GEMM operators {r['aten']}; "
          f"calls in bwgemm's log {r['logged']}")
    failures = 0
    if gemms != calls:
        print(f"FAIL: {gemms} GEMM operators, {calls} calls logged by bwgemm")
        failures += 1
    # 12 blocks x 4 Linear layers with a bias: PyTorch's forward goes through cuBLASLt.
    if r["logged"].get("cublasLtMatmul", 0) < 48:
        print("FAIL: fewer than 48 cublasLtMatmul calls logged (the forward Linear layers)")
        failures += 1
    print("ok: every GEMM of the step reached bwgemm" if not failures else "log check failed")
    return 1 if failures else 0


def run(vocab, steps, lib):
    return run_child(__file__, ["--child", str(vocab), "--steps", str(steps)], lib,
                     f"the run with vocabulary {vocab}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib", nargs="?")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--child", type=int)
    parser.add_argument("--log-check", action="store_true")
    parser.add_argument("--log-check-child", action="store_true")
    parser.add_argument("--kernels", type=int, metavar="VOCAB")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.steps, args.log_check_child)
    if args.kernels:
        return child(args.kernels, args.steps, kernels=True)
    if not args.lib:
        parser.error("the path of libbwgemm.so.0 is required")
    lib = os.path.abspath(args.lib)
    if args.log_check:
        return log_check(lib)
    configs = [(vocab, preload) for vocab in (50304, 50257) for preload in ("", lib)]
    # The GPU's clocks drift as it warms: the configurations run forwards, then
    # backwards, and each one's time is the mean of its two runs.
    times = {}
    for order in (configs, configs[::-1]):
        for vocab, preload in order:
            r = run(vocab, args.steps, preload)
            times.setdefault((vocab, bool(preload)), []).append(r["ms"])
            decisions = ", ".join(f"{k} x{v}" for k, v in sorted(r["paths"].items())) or "-"
            print(f"vocab {vocab} {'bwgemm' if preload else 'plain '}: {r['ms']:7.2f} ms/step"
                  f"  loss {r['loss']:.4f}  decisions: {decisions}", flush=True)
    ms = {key: sum(v) / len(v) for key, v in times.items()}
    print(f"summary: 50257 with bwgemm {ms[(50257, True)]:.2f} ms vs plain 50304 "
          f"{ms[(50304, False)]:.2f} ms ({ms[(50257, True)] / ms[(50304, False)]:.3f}x); "
          f"plain 50257 {ms[(50257, False)]:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
