// SPDX-License-Identifier: MIT
#include "api/gemm_entry.h"

#include "api/decode.h"
#include "dispatch/decision_log.h"
#include "dispatch/device_caps.h"
#include "dispatch/env_config.h"
#include "dispatch/log.h"
#include "dispatch/path_switch.h"
#include "dispatch/plan.h"
#include "forward/real_cublas.h"

namespace bwgemm {
namespace {

thread_local bwgemmPolicy_t t_policy = BWGEMM_POLICY_AUTO;

struct Prepared {
  GemmProblem problem;
  DeviceCaps caps;
  Plan plan;
};

// Everything before the launch. Any reason other than KERNEL_SELECTED sends
// the call to cuBLAS unchanged.
bwgemmReason_t prepare(const RawCall& call, Prepared* out) {
  if (env_config().disable) return BWGEMM_REASON_DISABLED_BY_ENV;
  bwgemmReason_t reason = classify_call(call);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  if (t_policy == BWGEMM_POLICY_FORCE_CUBLAS) return BWGEMM_REASON_FORCED_CUBLAS;

  const RealCublas* real = real_cublas();
  cublasPointerMode_t mode;
  cudaStream_t stream;
  if (real == nullptr || real->get_pointer_mode(call.handle, &mode) != CUBLAS_STATUS_SUCCESS ||
      real->get_stream(call.handle, &stream) != CUBLAS_STATUS_SUCCESS)
    return BWGEMM_REASON_HANDLE_QUERY_FAILED;

  out->problem = make_problem(call, mode, stream);
  reason = check_layout(out->problem);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  if (!current_device_caps(&out->caps)) return BWGEMM_REASON_DEVICE_QUERY_FAILED;
  out->plan =
      plan_gemm(out->problem, out->caps, t_policy, registered_kernel_families(), disabled_paths());
  return out->plan.reason;
}

}  // namespace

cublasStatus_t run_gemm(const RawCall& call) {
  Prepared prepared;
  bwgemmReason_t reason = prepare(call, &prepared);
  if (reason == BWGEMM_REASON_KERNEL_SELECTED) {
    const KernelFamily& family = *prepared.plan.family;
    const cudaError_t err = family.launch(prepared.problem, prepared.caps, prepared.plan.config);
    if (err == cudaSuccess) {
      record_decision(call, family.path, reason, family.config_name(prepared.plan.config));
      return CUBLAS_STATUS_SUCCESS;
    }
    // An earlier launch of this family failed on the device (the family is now
    // switched off): report it, as CUDA reports asynchronous errors late.
    if (err == cudaErrorLaunchFailure) {
      record_decision(call, family.path, BWGEMM_REASON_LAUNCH_FAILED, "");
      return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    // Nothing was enqueued, so cuBLAS can still compute the call.
    log_warning("%s kernel launch failed (CUDA error %d); forwarding to cuBLAS", family.name,
                static_cast<int>(err));
    reason = BWGEMM_REASON_LAUNCH_FAILED;
  }
  record_decision(call, BWGEMM_PATH_CUBLAS, reason, "");
  return forward_call(call);
}

bwgemmPolicy_t thread_policy() { return t_policy; }
void set_thread_policy(bwgemmPolicy_t policy) { t_policy = policy; }

}  // namespace bwgemm
