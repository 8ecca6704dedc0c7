// SPDX-License-Identifier: MIT
// The policy file `bwgemm-bench --tune` writes: which configuration of a
// kernel family, or cuBLAS, runs each range of aligned fp16/bf16 GEMM shapes,
// as measured on one GPU model with one cuBLAS and one build of bwgemm. Text:
//
//   bwgemm-policy 1
//   device NVIDIA H100 80GB HBM3
//   cublas 13.1.0
//   build 0.1.0
//   rule sm90 bf16 TN 4097 8192 1 64 2049 4096 sm90_64x64x64_12stage_2cta_splitk
//   rule sm90 bf16 TN 1 4096 1 64 1 4096 cublas
//
// A rule: family, type (fp16|bf16: A, B and C), op(A) op(B) as cuBLAS orders
// them, inclusive ranges of m, n and k, then a configuration name or
// "cublas". The first rule that matches a call decides it. '#' starts a
// comment line. This file only reads and writes the text; dispatch checks it
// against the process (tuned_policy.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.h"

namespace bwgemm {

struct TunedRule {
  std::string family;  // "sm90", "sm100"
  DType type;          // F16 or BF16
  bool trans_a, trans_b;
  int64_t min[3], max[3];  // m, n, k
  std::string choice;      // a configuration name, or "cublas"
};

struct TunedPolicy {
  std::string device;  // the GPU's name, as cudaGetDeviceProperties reports it
  std::string cublas;  // "major.minor.patch" of the cuBLAS measured against
  std::string build;   // bwgemm's version (BWGEMM_VERSION_STRING)
  std::vector<TunedRule> rules;
};

// Limits that keep a hostile or broken file cheap to reject.
constexpr size_t kMaxTunedPolicyBytes = size_t{1} << 20;
constexpr size_t kMaxTunedRules = 4096;

// Parses the whole text; on anything malformed returns false and says which
// line and why in `error` (nothing of a bad file is used).
bool parse_tuned_policy(const std::string& text, TunedPolicy* out, std::string* error);

// The text of `policy`, which parse_tuned_policy reads back unchanged.
std::string format_tuned_policy(const TunedPolicy& policy);

}  // namespace bwgemm
