// SPDX-License-Identifier: MIT
// The interface a kernel family (sm90, sm100) offers dispatch, and what a
// launch reports back.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/gemm_params.h"

namespace bwgemm {

// What became of a call handed to a launcher. Never a borrowed CUDA error:
// the entry point derives its cuBLAS status from this alone.
enum class LaunchStatus : uint8_t {
  kEnqueued,        // the kernel is on the problem's stream
  kForward,         // nothing was enqueued: cuBLAS computes the call (`reason` says why)
  kEarlierFailure,  // an earlier launch failed on the device: report it, enqueue nothing
};

struct LaunchResult {
  LaunchStatus status;
  bwgemmReason_t reason;  // KERNEL_SELECTED when enqueued
};

// A family's choice of configuration for a problem, and the rule of its
// selection table that made it (a static string, for the decision log and
// bwgemmGetLastDispatch's reason_message).
struct ConfigChoice {
  int config;  // -1: cuBLAS is faster
  const char* rule;
};

struct KernelFamily {
  bwgemmPath_t path;
  const char* name;
  // No GPU of this family's architecture has proven its kernels yet: every
  // launch goes through dispatch's guard (a self-check on first use per
  // device, and a device error flag the kernels' bounded waits set).
  bool guarded;
  // The architectures the family's kernels are built for.
  bool (*runs_on)(const DeviceCaps& caps);
  // BWGEMM_REASON_KERNEL_SELECTED when a kernel computes `p` exactly as
  // cuBLAS defines it; otherwise why not.
  bwgemmReason_t (*supports)(const GemmProblem& p, const DeviceCaps& caps);
  // The configuration (an index into the family's table) to run `p` with:
  // the measured shape policy, or, when `forced`, the best configuration
  // regardless of cuBLAS. -1: cuBLAS is faster.
  ConfigChoice (*choose_config)(const GemmProblem& p, const DeviceCaps& caps, bool forced);
  const char* (*config_name)(int config);
  int config_count;  // configurations 0 .. config_count - 1
  // Enqueues the configuration on p.stream; kEnqueued or kForward.
  // error_flag: where the kernels report a failed bounded wait (word NULL:
  // an unguarded family).
  LaunchResult (*launch)(const GemmProblem& p, const DeviceCaps& caps, int config,
                         ErrorFlag error_flag);
  // Whether the configuration reads B as it is where TMA cannot address it
  // (row classes, gemm_params.h): dispatch then does not pack it. NULL: never.
  bool (*reads_unaligned_b)(const GemmProblem& p, int config);
  // Whether the configuration computes `p` (which supports() took) on the
  // device: compiled for its layout, its rows within the configuration's,
  // its shared memory there; the decode configuration, its class of calls.
  bool (*config_takes)(const GemmProblem& p, const DeviceCaps& caps, int config);
  // Workspace the configuration's launch may use (GemmProblem::workspace)
  // besides packed operand copies: dispatch offers it where it can, and the
  // launch runs without it where it cannot. NULL: none.
  size_t (*workspace_room)(const GemmProblem& p, const DeviceCaps& caps, int config);
};

}  // namespace bwgemm
