#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libbwgemm preloaded into PyTorch (and CuPy): the GEMMs are intercepted and
the results are those of the same program without bwgemm.

Run it with LD_PRELOAD=<libbwgemm.so> and BWGEMM_LOG_FILE=<file> (CTest does).
It first runs itself again without the preload (--reference), saving that
run's results; then it runs the same operations here and, after each, reads
the new lines of bwgemm's log: the expected entry point must have been
intercepted, and the result must equal the reference bit for bit where every
call went to cuBLAS, or be within a relative Frobenius error (1e-2 for fp16,
2e-2 for bf16) where a bwgemm kernel ran. Exits 77 (skipped) without torch or
a GPU; the CuPy part is skipped without CuPy.
"""
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
TOLERANCE = {"float16": 1e-2, "bfloat16": 2e-2}
LOG_LINE = re.compile(r"^bwgemm: (\w+) .* -> (\w+)")


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


def torch_workloads(torch):
    """(name, dtype name, entry point bwgemm must see, function) for torch."""
    import torch.nn.functional as F

    gen = torch.Generator().manual_seed(1234)

    def randn(*shape, dtype):
        return torch.randn(*shape, generator=gen).to(dtype).cuda()

    work = []
    for dtype in (torch.float16, torch.bfloat16):
        name = str(dtype).split(".")[1]
        a, b = randn(256, 320, dtype=dtype), randn(320, 192, dtype=dtype)
        odd_a, odd_b = randn(129, 67, dtype=dtype), randn(67, 33, dtype=dtype)
        x, w = randn(4, 128, 96, dtype=dtype), randn(4, 96, 64, dtype=dtype)
        inp, weight = randn(64, 320, dtype=dtype), randn(192, 320, dtype=dtype)
        work += [
            (f"torch.mm {name}", name, "cublasGemmEx", lambda a=a, b=b: torch.mm(a, b)),
            (f"torch.mm odd {name}", name, "cublasGemmEx",
             lambda a=odd_a, b=odd_b: torch.mm(a, b)),
            (f"torch.bmm {name}", name, "cublasGemmStridedBatchedEx",
             lambda x=x, w=w: torch.bmm(x, w)),
            (f"F.linear {name}", name, "cublasGemmEx",
             lambda i=inp, w=weight: F.linear(i, w)),
        ]
    return work


def cupy_workloads():
    """The same for CuPy; empty without CuPy. bf16 only where CuPy has it."""
    try:
        import cupy
        import numpy
    except ImportError:
        print("note: CuPy not installed, CuPy part skipped")
        return []
    rng = numpy.random.default_rng(5678)
    work = []
    dtypes = [("float16", numpy.float16)]
    try:
        import ml_dtypes

        cupy.zeros(1, dtype=ml_dtypes.bfloat16)
        dtypes.append(("bfloat16", ml_dtypes.bfloat16))
    except (ImportError, TypeError, ValueError) as e:
        print(f"note: CuPy bf16 part skipped ({e.__class__.__name__})")
    for name, dtype in dtypes:
        a = cupy.asarray(rng.standard_normal((256, 320)).astype(numpy.float32).astype(dtype))
        b = cupy.asarray(rng.standard_normal((320, 192)).astype(numpy.float32).astype(dtype))
        work.append((f"cupy.matmul {name}", name, "cublasGemmEx",
                     lambda a=a, b=b: cupy.matmul(a, b)))
    return work


def as_float32(result):
    """A host numpy float32 copy (exact for fp16/bf16) of a torch or CuPy array."""
    if hasattr(result, "detach"):
        return result.detach().float().cpu().numpy()
    import cupy

    return cupy.asnumpy(result.astype(cupy.float32))


def load_torch():
    try:
        import torch
    except ImportError:
        skip("torch is not installed")
    if not torch.cuda.is_available():
        skip("no GPU")
    return torch


def run_reference(out_path):
    import numpy

    torch = load_torch()
    work = torch_workloads(torch) + cupy_workloads()
    numpy.savez(out_path, **{name: as_float32(fn()) for name, _, _, fn in work})


def new_log_lines(log_path, offset):
    with open(log_path, "rb") as f:
        f.seek(offset)
        data = f.read()
    return data.decode(errors="replace").splitlines(), offset + len(data)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--reference":
        run_reference(sys.argv[2])
        return 0
    preload = os.environ.get("LD_PRELOAD", "")
    log_path = os.environ.get("BWGEMM_LOG_FILE", "")
    if "bwgemm" not in preload or not log_path:
        print("FAIL: run with LD_PRELOAD=<libbwgemm.so> and BWGEMM_LOG_FILE=<file>")
        return 1
    torch = load_torch()
    import numpy

    with tempfile.TemporaryDirectory() as tmp:
        ref_path = os.path.join(tmp, "reference.npz")
        env = {k: v for k, v in os.environ.items()
               if k != "LD_PRELOAD" and not k.startswith("BWGEMM_")}
        ref = subprocess.run([sys.executable, __file__, "--reference", ref_path], env=env)
        if ref.returncode != 0:
            print(f"FAIL: the reference run without bwgemm exited {ref.returncode}")
            return ref.returncode
        reference = dict(numpy.load(ref_path))

    open(log_path, "w").close()
    offset = 0
    failures = 0
    for name, dtype, entry, fn in torch_workloads(torch) + cupy_workloads():
        got = as_float32(fn())
        torch.cuda.synchronize()
        lines, offset = new_log_lines(log_path, offset)
        calls = [m.groups() for m in map(LOG_LINE.match, lines) if m]
        if not any(e == entry for e, _ in calls):
            print(f"FAIL {name}: bwgemm logged no {entry} call (log: {lines})")
            failures += 1
            continue
        want = reference[name]
        paths = sorted({path for _, path in calls})
        if paths == ["cublas"]:
            ok = numpy.array_equal(got, want)
            detail = "bitwise equal" if ok else "differs from the run without bwgemm"
        else:
            err = numpy.linalg.norm(got - want) / max(numpy.linalg.norm(want), 1e-30)
            ok = err < TOLERANCE[dtype]
            detail = f"relative Frobenius error {err:.2e} (limit {TOLERANCE[dtype]:.0e})"
        print(f"{'ok' if ok else 'FAIL'} {name}: {entry} via {','.join(paths)}, {detail}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
