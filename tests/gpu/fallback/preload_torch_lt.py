#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libbwgemm preloaded into PyTorch training code that reaches cublasLtMatmul:
nn.Linear with and without bias, fp16 and bf16, forward and backward, the
fused addmm + ReLU/GELU, a small MLP and a transformer block. The outputs
and gradients must be those of the same program without bwgemm, and the log
must show the cublasLtMatmul calls reaching bwgemm's dispatcher.

  LD_PRELOAD=libbwgemm.so BWGEMM_LOG=2 BWGEMM_LOG_FILE=F [BWGEMM_POLICY=kernel|auto] \\
      preload_torch_lt.py
      runs every workload, after running itself without the preload
      (--reference) for the reference results.
  LD_PRELOAD=... BWGEMM_LOG=2 BWGEMM_LOG_FILE=F torchrun --nproc_per_node=N \\
      preload_torch_lt.py --ddp
      the transformer block under DistributedDataParallel, one process per
      GPU; each rank compares with a run of the block without bwgemm or DDP
      (every rank gets the same batch, so the averaged gradients are that
      run's).
  preload_torch_lt.py --torchrun N
      starts the --ddp form through torch.distributed.run with N processes.

Where every call of a workload went to cuBLAS the results must be equal bit
for bit (but for the transformer block: attention's backward need not be
deterministic); where a bwgemm kernel ran, within a relative Frobenius error (1e-2
fp16, 2e-2 bf16). With BWGEMM_POLICY=kernel, the Linear-with-bias forwards
must have run on a bwgemm kernel unless the GPU has none. Exits 77 (skipped)
without torch or enough GPUs.
"""
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
TOLERANCE = {"float16": 1e-2, "bfloat16": 2e-2}
# "bwgemm: cublasLtMatmul transa=1 ... -> sm90 <config> (KERNEL_SELECTED: <rule>)"
LOG_LINE = re.compile(r"^bwgemm: (\w+) .* -> (\w+)[^(]*\((\w+)[^)]*\)$")
# Reasons that mean this GPU (or this process) has no bwgemm kernel to run.
NO_KERNEL = {"NO_KERNEL_FOR_ARCH", "FAMILY_DISABLED", "SELF_CHECK_PENDING"}


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


def load_torch():
    try:
        import torch
    except ImportError:
        skip("torch is not installed")
    if not torch.cuda.is_available():
        skip("no GPU")
    return torch


def transformer_block(torch, dtype, device):
    torch.manual_seed(7)
    block = torch.nn.TransformerEncoderLayer(
        d_model=256, nhead=8, dim_feedforward=1024, dropout=0.0, batch_first=True,
        activation="gelu")
    return block.to(device=device, dtype=dtype)


def block_input(torch, dtype, device):
    gen = torch.Generator().manual_seed(11)
    return torch.randn(4, 96, 256, generator=gen).to(device=device, dtype=dtype)


def train_step(torch, module, inputs):
    """Forward, a scalar loss, backward: the output and every gradient."""
    for p in module.parameters():
        p.grad = None
    x = inputs.detach().clone().requires_grad_(True)
    y = module(x)
    # A sum, not a mean: the fp16 gradients of a mean over 98304 outputs fall
    # below fp16's normal range (6.1e-5), where DDP's division by the number
    # of ranks rounds them away; a sum keeps them near 1 (GradScaler's reason).
    loss = y.float().square().sum()
    loss.backward()
    results = {"out": y, "loss": loss.reshape(1), "dx": x.grad}
    inner = getattr(module, "module", module)  # DDP wraps the module
    for name, p in inner.named_parameters():
        results["d" + name] = p.grad
    return results


def workloads(torch, device="cuda"):
    """(name, dtype name, entry points bwgemm must log, Lt forward expected on
    the kernel, function returning {label: tensor})."""
    import torch.nn as nn

    work = []
    for dtype in (torch.float16, torch.bfloat16):
        name = str(dtype).split(".")[1]
        gen = torch.Generator().manual_seed(1234)

        def randn(*shape, dtype=dtype):
            return torch.randn(*shape, generator=gen).to(device=device, dtype=dtype)

        def module(factory):
            torch.manual_seed(3)
            return factory().to(device=device, dtype=dtype)

        x2, x3 = randn(64, 320), randn(4, 33, 320)
        lin_bias = module(lambda: nn.Linear(320, 200, bias=True))
        lin_plain = module(lambda: nn.Linear(320, 200, bias=False))
        mlp = module(lambda: nn.Sequential(nn.Linear(320, 1024), nn.GELU(approximate="tanh"),
                                           nn.Linear(1024, 320)))
        block = transformer_block(torch, dtype, device)
        xb = block_input(torch, dtype, device)
        bias, a, w = randn(200), randn(64, 320), randn(200, 320)
        work += [
            (f"Linear+bias 2-D {name}", name, {"cublasLtMatmul"}, True,
             lambda m=lin_bias, x=x2: train_step(torch, m, x)),
            (f"Linear+bias 3-D {name}", name, {"cublasLtMatmul"}, True,
             lambda m=lin_bias, x=x3: train_step(torch, m, x)),
            (f"Linear no bias {name}", name, {"cublasGemmEx"}, False,
             lambda m=lin_plain, x=x2: train_step(torch, m, x)),
            (f"MLP {name}", name, {"cublasLtMatmul"}, True,
             lambda m=mlp, x=x3: train_step(torch, m, x)),
            (f"transformer block {name}", name, {"cublasLtMatmul"}, True,
             lambda m=block, x=xb: train_step(torch, m, x)),
        ]
        if hasattr(torch, "_addmm_activation"):
            for act in ("relu", "gelu"):
                # Which entry point PyTorch picks for the fused activation
                # depends on its build; the results must hold either way.
                work.append(
                    (f"addmm+{act} {name}", name, set(), True,
                     lambda b=bias, a=a, w=w, g=act == "gelu":
                         {"out": torch._addmm_activation(b, a, w.t(), use_gelu=g)}))
    return work


def host(results):
    return {k: v.detach().float().cpu().numpy() for k, v in results.items() if v is not None}


def run_reference(out_path):
    import numpy

    torch = load_torch()
    saved = {}
    for name, _, _, _, fn in workloads(torch):
        for label, value in host(fn()).items():
            saved[f"{name}/{label}"] = value
    numpy.savez(out_path, **saved)


def reference_run(script_args, device=None):
    """The results of this script run without bwgemm (no preload, no BWGEMM_*)."""
    import numpy

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "reference.npz")
        env = {k: v for k, v in os.environ.items()
               if k != "LD_PRELOAD" and not k.startswith("BWGEMM_")}
        if device is not None:  # the same physical GPU as this rank's
            visible = os.environ.get("CUDA_VISIBLE_DEVICES")
            env["CUDA_VISIBLE_DEVICES"] = (visible.split(",")[device] if visible
                                           else str(device))
        ref = subprocess.run([sys.executable, __file__, *script_args, out], env=env)
        if ref.returncode != 0:
            print(f"FAIL: the reference run without bwgemm exited {ref.returncode}")
            sys.exit(ref.returncode)
        return dict(numpy.load(out))


def compare(name, dtype, got, reference, exact):
    """Failures (strings) of `got` ({label: array}) against the reference."""
    import numpy

    failures = []
    for label, value in got.items():
        want = reference.get(f"{name}/{label}")
        if want is None:
            failures.append(f"{label}: no reference")
            continue
        if exact:
            if not numpy.array_equal(value, want, equal_nan=True):
                failures.append(f"{label}: differs from the run without bwgemm")
            continue
        err = numpy.linalg.norm(value - want) / max(numpy.linalg.norm(want), 1e-30)
        if not err < TOLERANCE[dtype]:
            failures.append(f"{label}: relative Frobenius error {err:.2e}")
    return failures


def new_log_lines(log_path, offset):
    with open(log_path, "rb") as f:
        f.seek(offset)
        data = f.read()
    return data.decode(errors="replace").splitlines(), offset + len(data)


def check_environment():
    preload = os.environ.get("LD_PRELOAD", "")
    log_path = os.environ.get("BWGEMM_LOG_FILE", "")
    if "bwgemm" not in preload or not log_path or os.environ.get("BWGEMM_LOG") != "2":
        print("FAIL: run with LD_PRELOAD=<libbwgemm.so>, BWGEMM_LOG=2 and BWGEMM_LOG_FILE=<file>")
        sys.exit(1)
    return log_path


def lt_on_kernel_ok(calls):
    """Under BWGEMM_POLICY=kernel: some cublasLtMatmul ran on a bwgemm kernel,
    or every one says this GPU has none."""
    lt = [(path, reason) for entry, path, reason in calls if entry == "cublasLtMatmul"]
    return any(path != "cublas" for path, _ in lt) or all(r in NO_KERNEL for _, r in lt)


def main_single():
    log_path = check_environment()
    torch = load_torch()
    policy = os.environ.get("BWGEMM_POLICY", "auto")
    reference = reference_run(["--reference"])
    open(log_path, "w").close()
    offset = 0
    failures = 0
    for name, dtype, entries, lt_forward, fn in workloads(torch):
        got = host(fn())
        torch.cuda.synchronize()
        lines, offset = new_log_lines(log_path, offset)
        calls = [m.groups() for m in map(LOG_LINE.match, lines) if m]
        logged = {entry for entry, _, _ in calls}
        problems = [f"bwgemm logged no {e} call" for e in sorted(entries - logged)]
        if policy == "kernel" and lt_forward and not lt_on_kernel_ok(calls):
            problems.append("no cublasLtMatmul ran on a bwgemm kernel under BWGEMM_POLICY=kernel")
        paths = sorted({path for _, path, _ in calls})
        # Bit for bit where cuBLAS did everything, except through attention,
        # whose backward need not be deterministic run to run.
        exact = paths == ["cublas"] and "transformer" not in name
        problems += compare(name, dtype, got, reference, exact=exact)
        lt_paths = sorted({f"{p} ({r})" for e, p, r in calls if e == "cublasLtMatmul"})
        print(f"{'FAIL' if problems else 'ok'} {name}: via {','.join(paths) or 'nothing'}; "
              f"cublasLtMatmul: {', '.join(lt_paths) or 'none'}")
        for p in problems:
            print(f"    {p}")
        failures += bool(problems)
    return 1 if failures else 0


def run_block_reference(dtype_name, out_path):
    import numpy

    torch = load_torch()
    dtype = getattr(torch, dtype_name)
    results = train_step(torch, transformer_block(torch, dtype, "cuda"),
                         block_input(torch, dtype, "cuda"))
    numpy.savez(out_path, **{f"block/{k}": v for k, v in host(results).items()})


def main_ddp():
    log_path = check_environment()
    torch = load_torch()
    import torch.distributed as dist

    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl")
    failures = 0
    for dtype in (torch.bfloat16, torch.float16):
        name = str(dtype).split(".")[1]
        reference = reference_run(["--block-reference", name], device=rank)
        block = transformer_block(torch, dtype, f"cuda:{rank}")
        ddp = torch.nn.parallel.DistributedDataParallel(block, device_ids=[rank])
        got = host(train_step(torch, ddp, block_input(torch, dtype, f"cuda:{rank}")))
        torch.cuda.synchronize()
        problems = compare("block", name, got, reference, exact=False)
        print(f"{'FAIL' if problems else 'ok'} rank {rank} DDP transformer block {name}")
        for p in problems:
            print(f"    {p}")
        failures += bool(problems)
    dist.barrier()
    if rank == 0:
        lines, _ = new_log_lines(log_path, 0)
        calls = [m.groups() for m in map(LOG_LINE.match, lines) if m]
        if not any(entry == "cublasLtMatmul" for entry, _, _ in calls):
            print("FAIL: bwgemm logged no cublasLtMatmul call")
            failures += 1
    failed = torch.tensor([failures], device=f"cuda:{rank}")
    dist.all_reduce(failed)
    dist.destroy_process_group()
    return 1 if failed.item() else 0


def main_torchrun(processes):
    torch = load_torch()
    if torch.cuda.device_count() < processes:
        skip(f"{processes} GPUs needed, {torch.cuda.device_count()} present")
    log_path = check_environment()
    open(log_path, "w").close()
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
           f"--nproc_per_node={processes}", __file__, "--ddp"]
    return subprocess.run(cmd).returncode


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--reference":
        run_reference(args[1])
        return 0
    if len(args) == 3 and args[0] == "--block-reference":
        run_block_reference(args[1], args[2])
        return 0
    if args == ["--ddp"]:
        return main_ddp()
    if len(args) == 2 and args[0] == "--torchrun":
        return main_torchrun(int(args[1]))
    if args:
        print(__doc__)
        return 2
    return main_single()


if __name__ == "__main__":
    sys.exit(main())
