#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bwgemm with several GPUs of one host (two or more), in one process and in
# one job:
#   devices   a handle made on device 0 called with device 1 current gets
#             cuBLAS's answer; a handle per device used from two threads at
#             once computes the right results (reliability_check devices)
#   matrix    the GPU cases on every device at once, one thread each, with
#             bwgemm's log: every device's calls are logged as that device's
#             (gemm_check multigpu)
#   torchrun  a transformer block trained under DistributedDataParallel, one
#             process per GPU (torchrun --nproc_per_node=2, NCCL's defaults),
#             with libbwgemm preloaded under BWGEMM_POLICY=kernel and auto:
#             each rank's results equal a run without bwgemm, and each rank's
#             GEMMs are logged on its own device
# Exits 77 (skipped) with the reason on a host with fewer than two GPUs.
#   usage: scripts/multi-gpu-check.sh [BUILD_DIR]   (default build-gpu, as
#          scripts/gpu-check.sh build leaves it)
# Logs go to the results folder (OUT, default gpu-results/).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
results=${OUT:-gpu-results}
mkdir -p "$results"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
if [ "${gpus:-0}" -lt 2 ]; then
  echo "SKIP: multi-gpu-check needs two GPUs of one host (found ${gpus:-0})"
  exit 77
fi
lib=$(ls "$build"/libbwgemm.so.0 2>/dev/null) || {
  echo "multi-gpu-check: $build/libbwgemm.so.0 not found; build first (scripts/gpu-check.sh build)" >&2
  exit 1
}
nvidia-smi --query-gpu=index,name,driver_version --format=csv | tee "$results/multi-gpu.txt"
status=0
# shellcheck source=step.sh
. scripts/step.sh
# Every device in `log` has a decision on the kernel path logged as its own.
logged_on_every_device() {
  local log=$1 d
  for ((d = 0; d < gpus; d++)); do
    grep -q " device=$d .*-> sm" "$log" || { echo "no kernel decision logged on device $d"; return 1; }
  done
  echo "kernel decisions logged on each of $gpus devices"
}

step devices 300 "$build/tests/gpu/reliability/reliability_check" devices
export BWGEMM_LOG=2
step matrix 600 env BWGEMM_LOG_FILE="$results/matrix-bwgemm.log" \
  "$build/tests/gpu/kernel/gemm_check" multigpu
logged_on_every_device "$results/matrix-bwgemm.log" || status=1
for policy in kernel auto; do
  log="$results/torchrun-$policy-bwgemm.log"
  : >"$log"
  step "torchrun-$policy" 900 env LD_PRELOAD="$lib" BWGEMM_POLICY=$policy BWGEMM_LOG_FILE="$log" \
    python3 tests/gpu/fallback/preload_torch_lt.py --torchrun "$gpus"
  if [ "$policy" = kernel ]; then logged_on_every_device "$log" || status=1; fi
done
echo "multi-gpu-check: $([ $status -eq 0 ] && echo PASSED || echo FAILED) (logs in $results)"
exit $status
