// SPDX-License-Identifier: MIT
// The environment variables bwgemm reads, read once per process through one
// function (secure_getenv; a setuid/setgid process honours only BWGEMM_LOG and
// BWGEMM_DISABLE). SECURITY.md says what is read and written.
#pragma once

#include <cstdio>

#include "bwgemm/bwgemm.h"

namespace bwgemm {

struct EnvConfig {
  bool disable;           // BWGEMM_DISABLE=1/on/true/yes: every call goes to cuBLAS
  int log_level;          // BWGEMM_LOG: 0 off, 1 each new decision, 2 every call
  std::FILE* log_file;    // BWGEMM_LOG_FILE (appended), else stderr
  bwgemmPolicy_t policy;  // BWGEMM_POLICY=auto|kernel|cublas (AUTO when unset)
  bool sm90_off;          // BWGEMM_SM90=0/off/false/no
  bool sm100_off;         // BWGEMM_SM100=0/off/false/no
  // BWGEMM_SM90_CONFIG=<configuration name>: wherever the sm90 kernel runs,
  // that configuration (if compiled for the call's layout), for tests and
  // benchmarks; NULL when unset.
  const char* sm90_config;
  // BWGEMM_SM100_CONFIG=<configuration name>: the same for the sm100 kernel.
  const char* sm100_config;
  // BWGEMM_POLICY_FILE: a tuned selection policy (bwgemm-bench --tune;
  // dispatch/tuned_policy.h), or NULL.
  const char* policy_file;
  const char* cublas_library;    // BWGEMM_CUBLAS_LIBRARY: the library to forward to, or NULL
  const char* cublaslt_library;  // BWGEMM_CUBLASLT_LIBRARY: the cuBLASLt to forward to, or NULL
  // BWGEMM_WAIT_TIMEOUT_MS=1..600000: the base budget of the kernels'
  // bounded waits (kernels/common/gemm_params.h), kDefaultWaitTimeoutMs when
  // unset; longer for debuggers and compute-sanitizer.
  uint32_t wait_timeout_ms;
  // Where the self-check's verdicts are cached (dispatch/helper_check.h):
  // XDG_CACHE_HOME, else HOME/.cache; both NULL in a setuid/setgid process,
  // which caches nothing.
  const char* xdg_cache_home;
  const char* home;
};

constexpr uint32_t kDefaultWaitTimeoutMs = 100;

// Read on first use; later changes to the environment are not seen.
const EnvConfig& env_config();

// Tests only: read the environment again.
void env_config_reload();

// Tests only: replaces the AT_SECURE test (getauxval) with `probe`, or
// restores it when `probe` is NULL. Takes effect at the next reload.
void set_secure_execution_probe(bool (*probe)());

}  // namespace bwgemm
