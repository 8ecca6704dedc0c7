// SPDX-License-Identifier: MIT
// The tuned selection policy of BWGEMM_POLICY_FILE (the text format is
// core/tuned_policy_file.h; bwgemm-bench --tune writes it). Read once, at the
// first call that plans a kernel, and checked as a whole against this
// process: the build it was measured with, the cuBLAS bwgemm forwards to,
// every family and configuration it names. A file that fails any check is
// ignored with one warning, and the built-in tables decide. Its rules apply
// on the GPUs whose name is the file's device, under the AUTO policy.
#pragma once

#include <string>
#include <vector>

#include "core/tuned_policy_file.h"
#include "dispatch/registry.h"

namespace bwgemm {

// A checked policy: each rule's family and configuration resolved.
struct TunedRules {
  struct Rule {
    bwgemmPath_t path;
    DType type;
    bool trans_a, trans_b;
    int64_t min[3], max[3];  // m, n, k, inclusive
    int config;              // -1: cuBLAS
    std::string reason;      // "policy file rule N: ..." (log, bwgemmGetLastDispatch)
  };
  std::string device;
  std::vector<Rule> rules;
};

// What a policy is checked against.
struct TunedPolicyContext {
  std::string build;   // this library's build id
  std::string cublas;  // the real cuBLAS's version, "major.minor.patch"; empty: unknown
  KernelFamilyList families;
};

// Reads and checks the file at `path`: false with `why` for a file that
// cannot be opened (a symbolic link is refused), is too large, malformed, or
// measured elsewhere (another build or cuBLAS) or names an unknown family or
// configuration.
bool load_tuned_policy(const char* path, const TunedPolicyContext& context, TunedRules* out,
                       std::string* why);

// The process's rules for CUDA device `device`, or NULL: no BWGEMM_POLICY_FILE,
// a rejected one, or a GPU of another name.
const TunedRules* tuned_rules(int device);

// The first rule of `rules` for `family` that takes `p`: an fp16/bf16 call
// with C of A's type, not batched, every operand TMA-addressable, inside the
// rule's ranges. False when none does.
bool tuned_choice(const TunedRules& rules, const KernelFamily& family, const GemmProblem& p,
                  ConfigChoice* out);

}  // namespace bwgemm
