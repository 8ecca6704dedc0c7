// SPDX-License-Identifier: MIT
// The interface a kernel family (sm90, sm100) plugs into dispatch with.
#pragma once

#include <cuda_runtime_api.h>

#include "bwgemm/bwgemm.h"
#include "dispatch/device_caps.h"
#include "dispatch/problem.h"

namespace bwgemm {

struct KernelFamily {
  bwgemmPath_t path;
  const char* name;
  // The architectures the family's kernels are built for.
  bool (*runs_on)(const DeviceCaps& caps);
  // BWGEMM_REASON_KERNEL_SELECTED when a kernel computes `p` exactly as
  // cuBLAS defines it; otherwise why not.
  bwgemmReason_t (*supports)(const GemmProblem& p, const DeviceCaps& caps);
  // The configuration to run `p` with: the measured shape policy, or, when
  // `forced`, the best configuration regardless of cuBLAS. -1: cuBLAS is faster.
  int (*choose_config)(const GemmProblem& p, const DeviceCaps& caps, bool forced);
  const char* (*config_name)(int config);
  // Enqueues the kernel on p.stream. An error means nothing was enqueued:
  // cudaErrorLaunchFailure reports that an earlier launch failed on the
  // device (the call returns CUBLAS_STATUS_EXECUTION_FAILED); any other error
  // sends the call to cuBLAS.
  cudaError_t (*launch)(const GemmProblem& p, const DeviceCaps& caps, int config);
};

// The families built into this library, in order of preference.
struct KernelFamilyList {
  const KernelFamily* const* items;
  int count;
};
KernelFamilyList registered_kernel_families();

}  // namespace bwgemm
