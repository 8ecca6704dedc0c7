// SPDX-License-Identifier: MIT
// Shared-memory matrix operands of wgmma and tcgen05.mma: the canonical
// 16-bit layouts named by a matrix descriptor, decoded into floats.
#pragma once

#include <cstdint>

namespace bwgemm::emu {

struct Cta;

// A decoded descriptor: byte fields and the swizzle span (0, 32, 64, 128).
struct SmemMatrix {
  uint32_t start, lbo, sbo, span;
  bool mn_major;  // M/N-contiguous (transposed) rather than K-major
};

// Loads `rows` (M or N) x 16 (K) 16-bit elements of `m` from `cta`'s shared
// memory into out[row * 16 + k]; violations name `who`.
void load_operand(const Cta& cta, const SmemMatrix& m, int rows, bool bf16, float* out,
                  const char* who);

float half_to_float(uint16_t h);
float bf16_to_float(uint16_t h);

}  // namespace bwgemm::emu
