// SPDX-License-Identifier: MIT
#include "api/gemm_entry.h"

#include "api/decode.h"
#include "api/lt_decode.h"
#include "core/device_caps.h"
#include "core/env_config.h"
#include "core/launch_order.h"
#include "dispatch/decision_log.h"
#include "dispatch/launch.h"
#include "dispatch/path_switch.h"
#include "dispatch/plan.h"
#include "dispatch/policy.h"
#include "forward/handle_registry.h"
#include "forward/real_cublas.h"
#include "forward/real_cublaslt.h"

namespace bwgemm {
namespace {

struct Prepared {
  GemmProblem problem;
  DeviceCaps caps;
  Plan plan;
};

// What every entry point shares once its problem is built: the layout
// check, the device, and the plan. handle_device: the device the cuBLAS
// handle was made on, or kUnknownHandle where there is none to compare
// (cuBLASLt's handle is not bound to a device).
bwgemmReason_t plan_problem(const Policy& policy, int handle_device, Prepared* out) {
  const bwgemmReason_t reason = check_layout(out->problem);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  if (!current_device_caps(&out->caps)) return BWGEMM_REASON_DEVICE_QUERY_FAILED;
  // A handle used with another device current, or a stream of another
  // device, is cuBLAS's to refuse.
  if ((handle_device != kUnknownHandle && handle_device != out->caps.device) ||
      stream_device(out->problem.stream, out->caps.device) != out->caps.device)
    return BWGEMM_REASON_HANDLE_QUERY_FAILED;
  out->plan = plan_gemm(out->problem, out->caps, policy.mode, registered_kernel_families(),
                        disabled_paths(), tuned_rules(out->caps.device));
  return out->plan.reason;
}

// Everything before the launch of a cuBLAS entry point. Any reason other
// than KERNEL_SELECTED sends the call to cuBLAS unchanged.
bwgemmReason_t prepare(const RawCall& call, Prepared* out) {
  const Policy policy = resolve_policy(env_config(), thread_policy());
  if (policy.reason == BWGEMM_REASON_DISABLED_BY_ENV) return policy.reason;
  bwgemmReason_t reason = classify_call(call);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  if (policy.mode == BWGEMM_POLICY_FORCE_CUBLAS) return policy.reason;

  const RealCublas* real = real_cublas();
  if (real == nullptr) return BWGEMM_REASON_HANDLE_QUERY_FAILED;
  // A handle bwgemm did not see created may be another cuBLAS copy's object,
  // which the real cuBLAS's getters would misread: never read it.
  const int handle_device_index = handle_device(call.handle);
  if (handle_device_index == kUnknownHandle) return BWGEMM_REASON_UNKNOWN_HANDLE;
  cublasPointerMode_t mode;
  cudaStream_t stream;
  if (real->get_pointer_mode(call.handle, &mode) != CUBLAS_STATUS_SUCCESS ||
      real->get_stream(call.handle, &stream) != CUBLAS_STATUS_SUCCESS)
    return BWGEMM_REASON_HANDLE_QUERY_FAILED;

  out->problem = make_problem(call, mode, stream);
  if (real->get_sm_count_target != nullptr &&
      real->get_sm_count_target(call.handle, &out->problem.sm_count_target) !=
          CUBLAS_STATUS_SUCCESS)
    return BWGEMM_REASON_HANDLE_QUERY_FAILED;
  return plan_problem(policy, handle_device_index, out);
}

// The same for cublasLtMatmul: the descriptors are decoded into `call`
// (which the decision log then shows) through the real cuBLASLt's getters;
// the pointer mode, stream and SM target come with the call.
bwgemmReason_t prepare_lt(const LtMatmulArgs& args, RawCall* call, LtDecoded* decoded,
                          Prepared* out) {
  const Policy policy = resolve_policy(env_config(), thread_policy());
  // Forced to cuBLAS: not even decoded (the descriptors' getters are the
  // forwarding cost).
  if (policy.mode == BWGEMM_POLICY_FORCE_CUBLAS) return policy.reason;
  const RealCublasLt* lt = real_cublaslt();
  if (lt == nullptr) return BWGEMM_REASON_HANDLE_QUERY_FAILED;
  // Only a call a kernel will run pays for the rest of its descriptors, read
  // after the plan; forced onto the kernel, every call needs them, and they
  // are read first, so that the log names an unimplemented attribute.
  const bool kernel_forced = policy.mode == BWGEMM_POLICY_FORCE_KERNEL;
  bwgemmReason_t reason = decode_lt_call(*lt, args, call, decoded);
  if (reason == BWGEMM_REASON_KERNEL_SELECTED && kernel_forced)
    reason = decode_lt_kernel_attributes(*lt, args, call->Ctype, decoded);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  reason = classify_call(*call);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  out->problem = make_problem(*call, decoded->pointer_mode, args.stream);
  // cuBLASLt takes a NULL C only where beta == 0 means it is not read.
  if (out->problem.c == nullptr && (out->problem.beta.on_device || out->problem.beta.value != 0.0f))
    return BWGEMM_REASON_INVALID_ARGUMENT;
  reason = plan_problem(policy, kUnknownHandle, out);
  if (reason == BWGEMM_REASON_KERNEL_SELECTED && !kernel_forced)
    reason = decode_lt_kernel_attributes(*lt, args, call->Ctype, decoded);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return reason;
  out->problem.epilogue = decoded->epilogue;
  out->problem.sm_count_target = decoded->sm_count_target;
  return check_layout(out->problem);  // the bias's alignment
}

// Launches a prepared call, or forwards it with `reason`, and records what
// happened.
cublasStatus_t run_prepared(const RawCall& call, bwgemmReason_t reason, const Prepared& prepared) {
  // Only these two reasons come from the plan, which then holds the rule.
  const char* rule =
      reason == BWGEMM_REASON_KERNEL_SELECTED || reason == BWGEMM_REASON_POLICY_PREFERS_CUBLAS
          ? prepared.plan.rule
          : nullptr;
  if (reason == BWGEMM_REASON_KERNEL_SELECTED) {
    const KernelFamily& family = *prepared.plan.family;
    const LaunchResult launched = launch_planned(prepared.plan, prepared.problem, prepared.caps);
    switch (launched.status) {
      case LaunchStatus::kEnqueued:
        record_decision(call, family.path, launched.reason,
                        family.config_name(prepared.plan.config), rule);
        return CUBLAS_STATUS_SUCCESS;
      // Reported late, as CUDA reports asynchronous errors; the family is
      // switched off by now.
      case LaunchStatus::kEarlierFailure:
        record_decision(call, family.path, launched.reason, "");
        return CUBLAS_STATUS_EXECUTION_FAILED;
      // Nothing was enqueued, so cuBLAS can still compute the call.
      case LaunchStatus::kForward:
        reason = launched.reason;
        rule = nullptr;
        break;
    }
  }
  record_decision(call, BWGEMM_PATH_CUBLAS, reason, "", rule);
  record_other_grid();  // cuBLAS's kernels: launch_order.h
  return forward_call(call);
}

}  // namespace

cublasStatus_t run_gemm(const RawCall& call) {
  Prepared prepared;
  const bwgemmReason_t reason = prepare(call, &prepared);
  return run_prepared(call, reason, prepared);
}

cublasStatus_t run_lt_matmul(const LtMatmulArgs& args) {
  RawCall call{};
  call.entry = EntryPoint::LtMatmul;
  call.lt = &args;
  LtDecoded decoded;
  Prepared prepared;
  const bwgemmReason_t reason = prepare_lt(args, &call, &decoded, &prepared);
  return run_prepared(call, reason, prepared);
}

}  // namespace bwgemm
