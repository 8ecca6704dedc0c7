// SPDX-License-Identifier: MIT
// A GEMM test case in host memory: cuBLAS's column-major operands with
// padded leading dimensions, C poisoned around m x n, an fp64 reference and
// the check of a result. Shared by the emulation tests and emu_vs_gpu.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/problem.h"

namespace bwgemm::emu_test {

struct GemmCase {
  DType ab = DType::F16, c = DType::F16;
  bool ta = false, tb = false;  // op(A), op(B) transposed
  int64_t m = 1, n = 1, k = 1, batch = 1;
  float alpha = 1.0f, beta = 0.0f;
  bool device_scalars = false;  // alpha/beta read through pointers by the kernel
  int64_t pad = 8;              // leading dimensions: rows rounded up to 8, plus pad
  bool minimal_ld = false;      // leading dimensions: exactly the rows (pad unused)
  int64_t offset = 0;           // elements every matrix starts past its buffer's start
  bool broadcast_b = false;     // batch stride 0 for B
  bool integers = true;         // small integers (exact) or gaussian inputs
  // cuBLASLt's epilogue: a bias per row of D (small integers), an activation.
  bool bias = false;
  DType bias_type = DType::F32;
  Activation activation = Activation::None;
  bool out_of_place = false;  // D a buffer of its own; C only read
  // The call comes with a workspace (cuBLASLt's) of this many bytes.
  size_t workspace_bytes = 0;
};

std::string describe(const GemmCase& c);

// The case's buffers. Inputs and C are filled from `seed`; C's padding rows
// (between m and ldc) hold a sentinel that must survive.
struct HostGemm {
  GemmCase c;
  int64_t lda, ldb, ldc, stride_a, stride_b, stride_c;
  std::vector<uint8_t> a, b, c_initial;
  std::vector<uint8_t> bias;       // m per batch, when c.bias
  std::vector<uint8_t> d_initial;  // D before the run: C's bytes, m x n poisoned (NaN)

  HostGemm(const GemmCase& gc, uint64_t seed);
  size_t c_bytes() const { return c_initial.size(); }
  // The problem as the API decodes it, over the given buffers (host or
  // device). d_ptr receives the result; it is C too unless c.out_of_place,
  // when c_ptr is C. bias_ptr: the bias, when c.bias.
  GemmProblem problem(const void* a_ptr, const void* b_ptr, void* d_ptr, const float* alpha_ptr,
                      const float* beta_ptr, const void* c_ptr = nullptr,
                      const void* bias_ptr = nullptr) const;
  // "" when `c_after` (D) matches: inside m x n the fp64 reference (bit-exact
  // for integer inputs without GELU, else within a bound from k and the
  // types), outside it the original bytes. Otherwise the first mismatches.
  std::string check(const uint8_t* c_after) const;
};

}  // namespace bwgemm::emu_test
