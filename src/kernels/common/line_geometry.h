// SPDX-License-Identifier: MIT
// The arithmetic of the line loader (line_load.cuh), as plain functions the
// host can test: where a line of a tile lies in shared memory and in the
// operand, and how a line's bytes come out of its 16-byte-aligned window.
#pragma once

#include <vector_functions.h>
#include <vector_types.h>

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm {

constexpr int kLineElems = 64;  // elements of a line: one 128-byte swizzle row
constexpr int kLineBytes = 128;
constexpr int kLanesPerLine = 4;  // a quarter of its chunks each (line_load.cuh)
constexpr int kLinesPerPass = 32 / kLanesPerLine;

// Where line `line`'s 16-byte chunk `chunk` (0-7) lies in a tile written with
// the TMA's 128-byte swizzle (tiles are 1024-byte aligned).
BWGEMM_HOST_DEVICE uint32_t line_slot(uint32_t line, uint32_t chunk) {
  return line * kLineBytes + ((chunk ^ (line & 7)) << 4);
}

// The lines of one operand tile (at mn0, k0), as a step's loader sees them:
// where each starts and how many of its 64 elements lie inside the operand
// (0: none, the line is all zeros). K-major: line i is M/N row mn0 + i, from
// k0. M/N-major: the tile is 64-wide boxes of M/N, line i is k0 + i % 64 of
// box i / 64. Computed once per step, so that a line costs a few
// instructions.
template <bool kMNMajor>
struct TileLines {
  const uint8_t* origin;  // element (mn0, k0) of the operand's plane (2-byte elements)
  int64_t pitch;          // bytes between the operand's rows of storage
  int32_t mn_left;        // M/N extent from mn0 (<= 0: the tile lies past the operand)
  int32_t k_left;         // depth from k0 (> 0)

  BWGEMM_HOST_DEVICE int32_t count(int32_t line) const {
    const int32_t left =
        kMNMajor ? (line % kLineElems < k_left ? mn_left - line / kLineElems * kLineElems : 0)
                 : (line < mn_left ? k_left : 0);
    return left <= 0 ? 0 : left < kLineElems ? left : kLineElems;
  }
  BWGEMM_HOST_DEVICE const uint8_t* start(int32_t line) const {
    return kMNMajor ? origin + (line % kLineElems) * pitch + line / kLineElems * kLineBytes
                    : origin + line * pitch;
  }
};

// The tile at (mn0, k0) of a plane of 16-bit elements, `extent` rows of M/N
// by `depth` K, `ld` elements between its rows of storage.
template <bool kMNMajor>
BWGEMM_HOST_DEVICE TileLines<kMNMajor> tile_lines(const uint8_t* plane, int64_t ld, int32_t extent,
                                                  int32_t depth, int32_t mn0, int32_t k0) {
  const int64_t first = kMNMajor ? int64_t(k0) * ld + mn0 : int64_t(mn0) * ld + k0;
  return {plane + 2 * first, 2 * ld, extent - mn0, depth - k0};
}

// The row and column operand tiles of one step, as a loader warp keeps them
// in shared memory from the step's copies to its shift.
template <bool kRowMN, bool kColMN>
struct StepLines {
  TileLines<kRowMN> row;
  TileLines<kColMN> col;
};

// The 16 bytes `shift` bytes (even, 0 to 14) into lo:hi, without indexing
// registers at run time.
BWGEMM_HOST_DEVICE uint4 window_bytes(const uint4& lo, const uint4& hi, uint32_t shift) {
  const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  const uint32_t words = shift / 4, bits = shift % 4 * 8;
  uint32_t v[5];
  for (int i = 0; i < 5; ++i) {
    const uint32_t a = (words & 2) ? w[i + 2] : w[i];
    const uint32_t b = (words & 2) ? w[i + 3] : w[i + 1];
    v[i] = (words & 1) ? b : a;
  }
  uint32_t out[4];
  for (int i = 0; i < 4; ++i) out[i] = uint32_t(((uint64_t(v[i + 1]) << 32) | v[i]) >> bits);
  return make_uint4(out[0], out[1], out[2], out[3]);
}

// The 16-bit elements of a chunk from `valid` on (any int) set to zero.
BWGEMM_HOST_DEVICE uint4 keep_elements(const uint4& v, int32_t valid) {
  const auto word = [valid](uint32_t x, int32_t first) {
    const uint32_t low = first < valid ? 0xffffu : 0u;
    const uint32_t high = first + 1 < valid ? 0xffff0000u : 0u;
    return x & (low | high);
  };
  return make_uint4(word(v.x, 0), word(v.y, 2), word(v.z, 4), word(v.w, 6));
}

}  // namespace bwgemm
