// SPDX-License-Identifier: MIT
// The sm100 family's run-time guard. No Blackwell GPU has run this code
// before it meets a user's, so on first use per device each configuration is
// compared with cuBLAS on small problems of every op combination and type;
// any mismatch, launch failure or reported protocol failure switches the
// family off for the process.
#pragma once

#include <cstdint>
#include <string>

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/kernel_family.h"

namespace bwgemm {

struct SelfCheckCase {
  DType ab, out;
  bool trans_a, trans_b;
  int m, n, k;
};

// The checked problems: partial tiles on every edge, each op combination,
// fp16 and bf16, same-type and fp32 outputs, and two with a few tokens
// (decode GEMMs: one tile of columns, K split unevenly).
int self_check_case_count();
SelfCheckCase self_check_case(int i);

// A case as every backend runs it: A, B and D at a, b and d, column-major,
// each leading dimension rounded up to 8 elements (16-byte rows), alpha 1,
// beta 0, one matrix, on the default stream.
GemmProblem self_check_problem(const SelfCheckCase& c, const void* a, const void* b, void* d);

// Whether `config` of `family` takes the case on the device
// (KernelFamily::config_takes; any 16-byte aligned operands).
bool self_check_takes(const KernelFamily& family, const DeviceCaps& caps, const SelfCheckCase& c,
                      int config);

// How a case is run: the family's kernel in one of its configurations and
// the reference, each writing the m x n column-major result as floats. The
// GPU backend uses the CUDA runtime and the real cuBLAS; tests plug in others
// (for example the emulator).
struct SelfCheckBackend {
  void* context;
  // The family's configurations 0 .. configs - 1, each checked (a policy
  // file or BWGEMM_SM100_CONFIG may pick any of them).
  int configs;
  const char* (*config_name)(int config);
  // Whether the configuration takes the case (KernelFamily::config_takes):
  // each runs the cases it takes, and must take one.
  bool (*takes)(void* context, const SelfCheckCase& c, int config);
  // False when the kernel could not run or reported a protocol failure.
  bool (*run_kernel)(void* context, const SelfCheckCase& c, int config, float* out);
  bool (*run_reference)(void* context, const SelfCheckCase& c, float* out);
};

// True when every configuration took a case and every case's kernel result
// matches the reference within the tolerance of its output type in every
// configuration that takes it; otherwise false with the first failure.
bool run_self_check(const SelfCheckBackend& backend, std::string* failure);

// The index-pattern case: fp16 in, fp32 out, k = 64, whose result encodes
// each element's row and column (C(i, j) = i + 2048 j, exact), so that an
// element out of place says where it came from.
SelfCheckCase index_pattern_case();
// A(i, kk) and B(kk, j) of that case (op N, N).
float index_pattern_a(int64_t i, int64_t kk);
float index_pattern_b(int64_t kk, int64_t j);
// True when `out` (m x n, column-major) is the pattern; otherwise false,
// naming the first wrong element and, if it holds another element's value,
// where that value belongs (a misplaced tile).
bool check_index_pattern(const float* out, std::string* failure);

}  // namespace bwgemm
