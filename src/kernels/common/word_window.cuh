// SPDX-License-Identifier: MIT
// A 16-byte word cut from two neighbouring aligned ones at a 2-byte boundary:
// what an unaligned 16-byte access of 2-byte (or 4-byte) elements reads from
// the aligned words that hold it (the pack's unaligned columns, the epilogue's
// rotated rows of D).
#pragma once

#include <vector_types.h>

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

// Elements e .. e + 7 of the sixteen 2-byte elements lo, hi (0 <= e < 8,
// element 0 in lo's low bits). Where e is a constant the selects and shifts
// fold: e >= 4 reads only lo.z, lo.w; e >= 6 only lo.w.
BWGEMM_HOST_DEVICE uint4 word_window(const uint4& lo, const uint4& hi, int e) {
  const uint64_t q0 = lo.x | uint64_t(lo.y) << 32, q1 = lo.z | uint64_t(lo.w) << 32;
  const uint64_t q2 = hi.x | uint64_t(hi.y) << 32, q3 = hi.z | uint64_t(hi.w) << 32;
  const bool up = e >= 4;
  const uint64_t s0 = up ? q1 : q0, s1 = up ? q2 : q1, s2 = up ? q3 : q2;
  const int bits = 16 * (e % 4);
  const uint64_t r0 = bits ? s0 >> bits | s1 << (64 - bits) : s0;
  const uint64_t r1 = bits ? s1 >> bits | s2 << (64 - bits) : s1;
  return uint4{uint32_t(r0), uint32_t(r0 >> 32), uint32_t(r1), uint32_t(r1 >> 32)};
}

}  // namespace bwgemm
