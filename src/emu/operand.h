// SPDX-License-Identifier: MIT
// Shared-memory matrix operands of wgmma and tcgen05.mma: the canonical
// 16-bit layouts named by a matrix descriptor, decoded into floats.
#pragma once

#include <cstdint>
#include <vector>

namespace bwgemm::emu {

struct Cta;

// A half-open range of shared-window addresses.
struct ByteRange {
  uint32_t lo = UINT32_MAX, hi = 0;
  void add(uint32_t address, uint32_t bytes) {
    if (address < lo) lo = address;
    if (address + bytes > hi) hi = address + bytes;
  }
  bool overlaps(const ByteRange& o) const { return lo < o.hi && o.lo < hi; }
};

// A decoded descriptor: byte fields and the swizzle span (0, 32, 64, 128).
struct SmemMatrix {
  uint32_t start, lbo, sbo, span;
  bool mn_major;  // M/N-contiguous (transposed) rather than K-major
};

// `rows` (M or N) x 16 (K) elements as floats, values[row * 16 + k], and the
// shared memory they were read from.
struct Operand {
  std::vector<float> values;
  ByteRange range;
};

// Reads the operand `m` names from `cta`'s shared memory; violations name
// `who`.
Operand load_operand(const Cta& cta, const SmemMatrix& m, int rows, bool bf16, const char* who);

// The operand must read the same values when the unit completes as when it
// was issued: shared memory (or, for an operand with an empty range, the
// registers) under an MMA in flight must not change.
void check_unchanged(const Operand& issued, const Operand& now, const char* who);

// One 16-bit element, bf16 or f16, as a float.
float element_to_float(uint16_t bits, bool bf16);

}  // namespace bwgemm::emu
