// SPDX-License-Identifier: MIT
// The exported bwgemm* queries: version, last dispatch, policy, strings.
#include "bwgemm/bwgemm.h"
#include "core/names.h"
#include "dispatch/decision_log.h"
#include "dispatch/policy.h"

extern "C" {

int bwgemmGetVersion(void) { return BWGEMM_VERSION; }

cublasStatus_t bwgemmGetLastDispatch(bwgemmDispatchInfo_t* info) {
  if (info == nullptr || info->size < sizeof(bwgemmDispatchInfo_t))
    return CUBLAS_STATUS_INVALID_VALUE;
  bwgemm::last_decision(info);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t bwgemmSetThreadPolicy(bwgemmPolicy_t policy) {
  if (policy != BWGEMM_POLICY_AUTO && policy != BWGEMM_POLICY_FORCE_KERNEL &&
      policy != BWGEMM_POLICY_FORCE_CUBLAS)
    return CUBLAS_STATUS_INVALID_VALUE;
  bwgemm::set_thread_policy(policy);
  return CUBLAS_STATUS_SUCCESS;
}

bwgemmPolicy_t bwgemmGetThreadPolicy(void) { return bwgemm::thread_policy(); }

const char* bwgemmGetReasonString(bwgemmReason_t reason) { return bwgemm::reason_message(reason); }

const char* bwgemmGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized (NULL handle, or cuBLAS not found)";
    case CUBLAS_STATUS_ALLOC_FAILED: return "resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "architecture mismatch";
    case CUBLAS_STATUS_MAPPING_ERROR: return "memory mapping error";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "internal error";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "license error";
  }
  return "unknown status";
}

}  // extern "C"
