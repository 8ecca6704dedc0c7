// SPDX-License-Identifier: MIT
// Epilogue pieces shared by the kernel families: alpha/beta and conversion of
// fp32 accumulators, the 128B-swizzled staging layout, the bounded store of a
// staged chunk by threads (for chunks a TMA store cannot clip exactly), and
// the rotated rows of D that TMA cannot store at all.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

#include "kernels/common/word_window.cuh"
#include "kernels/ptx/device.cuh"

namespace bwgemm::epilogue {

// Byte offset of (row, byte) in a staging buffer of 128-byte rows written with
// the TMA 128B swizzle: 16-byte chunk index XOR (row % 8). Buffers are 1024-B
// aligned, so this is the pattern the TMA store expects.
BWGEMM_HOST_DEVICE uint32_t swizzled_offset(uint32_t row, uint32_t byte) {
  return row * 128 + (((byte >> 4) ^ (row & 7)) << 4) + (byte & 15);
}

template <class Out>
struct OutTraits;

template <>
struct OutTraits<float> {
  using PairBits = uint64_t;
  // Two adjacent outputs' bytes as they are stored.
  BWGEMM_HOST_DEVICE static PairBits pair_bits(float a, float b) {
    const float2 pair = make_float2(a, b);
    PairBits bits;
    memcpy(&bits, &pair, sizeof bits);
    return bits;
  }
  BWGEMM_HOST_DEVICE static float to_float(float v) { return v; }
  // Two adjacent outputs as they are stored.
  BWGEMM_HOST_DEVICE static void store_pair(uint8_t* dst, float a, float b) {
    reinterpret_cast<float2*>(dst)[0] = make_float2(a, b);
  }
  BWGEMM_HOST_DEVICE static float from_float(float v) { return v; }
};

template <>
struct OutTraits<__half> {
  using PairBits = uint32_t;
  BWGEMM_HOST_DEVICE static PairBits pair_bits(float a, float b) {
    const __half2 pair = __floats2half2_rn(a, b);
    PairBits bits;
    memcpy(&bits, &pair, sizeof bits);
    return bits;
  }
  BWGEMM_HOST_DEVICE static float to_float(__half v) { return __half2float(v); }
  BWGEMM_HOST_DEVICE static void store_pair(uint8_t* dst, float a, float b) {
    reinterpret_cast<__half2*>(dst)[0] = __floats2half2_rn(a, b);
  }
  BWGEMM_HOST_DEVICE static __half from_float(float v) { return __float2half_rn(v); }
};

template <>
struct OutTraits<__nv_bfloat16> {
  using PairBits = uint32_t;
  BWGEMM_HOST_DEVICE static PairBits pair_bits(float a, float b) {
    const __nv_bfloat162 pair = __floats2bfloat162_rn(a, b);
    PairBits bits;
    memcpy(&bits, &pair, sizeof bits);
    return bits;
  }
  BWGEMM_HOST_DEVICE static float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
  BWGEMM_HOST_DEVICE static void store_pair(uint8_t* dst, float a, float b) {
    reinterpret_cast<__nv_bfloat162*>(dst)[0] = __floats2bfloat162_rn(a, b);
  }
  BWGEMM_HOST_DEVICE static __nv_bfloat16 from_float(float v) { return __float2bfloat16_rn(v); }
};

// 16 bytes of outputs (16 / sizeof(Out) values from v), converted, as one
// vector for a 16-byte store. Built with memcpy: filling a uint4 through
// __half2 / float2 lvalues breaks strict aliasing (g++ -O2 drops the stores).
template <class Out>
BWGEMM_HOST_DEVICE uint4 pack_16_bytes(const float* v) {
  using Traits = OutTraits<Out>;
  constexpr int kPairs = 16 / int(sizeof(typename Traits::PairBits));
  typename Traits::PairBits bits[kPairs];
  for (int i = 0; i < kPairs; ++i) bits[i] = Traits::pair_bits(v[2 * i], v[2 * i + 1]);
  uint4 packed;
  memcpy(&packed, bits, sizeof packed);
  return packed;
}

// Adds beta * C[row][col] to two adjacent columns, reading C only inside
// rows x cols (a column may be negative: a kOut row class's first block,
// gemm_params.h). Called only when beta != 0 (beta == 0 never reads C).
template <class Out>
BWGEMM_HOST_DEVICE void add_scaled_pair(float* v0, float* v1, float beta, const Out* c, int64_t ld,
                                        int32_t row, int32_t col, int32_t rows, int32_t cols) {
  if (row < rows) {
    const Out* src = c + row * ld + col;
    if (uint32_t(col) < uint32_t(cols)) *v0 += beta * OutTraits<Out>::to_float(src[0]);
    if (uint32_t(col + 1) < uint32_t(cols)) *v1 += beta * OutTraits<Out>::to_float(src[1]);
  }
}

// Stores a staged chunk of rows x chunk_cols elements at (row0, col0) of D
// element by element, skipping everything outside rows x cols: where a TMA
// store would write past the last column or before the first. Consecutive threads write
// consecutive elements of a row.
template <class Out, int kChunkCols>
BWGEMM_HOST_DEVICE void store_chunk_bounded(const uint8_t* staging, int chunk_rows, Out* d,
                                            int64_t ld, int32_t row0, int32_t col0, int32_t rows,
                                            int32_t cols, uint32_t thread, uint32_t threads) {
  for (uint32_t i = thread; i < uint32_t(chunk_rows) * kChunkCols; i += threads) {
    const uint32_t r = i / kChunkCols, c = i % kChunkCols;
    if (row0 + int32_t(r) < rows && uint32_t(col0 + int32_t(c)) < uint32_t(cols)) {
      const uint32_t off = swizzled_offset(r, c * sizeof(Out));
      d[(row0 + r) * ld + col0 + c] = *reinterpret_cast<const Out*>(staging + off);
    }
  }
}

// Rows of D that TMA cannot store (a base or leading dimension that is not a
// multiple of 16 bytes) are staged unswizzled, kRowBytes of the buffer per
// row, each rotated: the row's byte x (from the staged columns' first) is at
// (rotation + x) mod kRowBytes. The rotation aligns D's 16-byte boundaries
// with the buffer's to within one element, and the fill's pairs of values with
// the buffer's pair slots exactly, so that the fill stores a pair at once (two
// 2-byte stores a pair held the consumers up: docs/perf.md v37). A warp then
// writes the row: its aligned middle in 16-byte words, one a lane, each read
// from the buffer's aligned words (with, where D's boundary falls one element
// off the buffer's, the previous word's last element shifted in), and the at
// most 15 bytes at either end element by element. (Until v37 bulk copies
// wrote the middle; their operands are uniform, so a warp issued its lanes'
// copies one after another: the warps' 16-byte stores took 3-4 % off the
// 4095 x 4097 kernels, v37. Element by element stores of whole rows, and
// 16-byte ones shifted in registers from unrotated rows, held the consumers
// up: v8.)
//
// The rotation: the row's start address mod 16 rounded down to a pair of
// elements, plus 16 x (row mod 8) so that the 8 rows a warp fills at once fall
// into different banks.
template <class Out>
BWGEMM_HOST_DEVICE uint32_t row_rotation(const Out* row_start, uint32_t row) {
  constexpr uint32_t kPairBytes = 2 * sizeof(Out);
  return uint32_t(reinterpret_cast<uintptr_t>(row_start) % 16) / kPairBytes * kPairBytes +
         16 * (row % 8);
}

template <int kRowBytes>
BWGEMM_HOST_DEVICE uint32_t rotated_offset(uint32_t rotation, uint32_t byte) {
  static_assert(kRowBytes >= 128 && kRowBytes % 128 == 0, "a row holds every rotation");
  return (rotation + byte) % kRowBytes;
}

// Lane `lane` (0..31) of the warp writing the first `elements` of a staged row
// (row_buffer, rotation) to dst, D's element at the staged columns' first:
// words head + 16 lane, + 512, ... of the middle, and element `lane` of the
// head (lanes 0..15) or of the tail (lanes 16..31).
template <class Out, int kRowBytes>
BWGEMM_HOST_DEVICE void store_rotated_row(const uint8_t* row_buffer, uint32_t rotation, Out* dst,
                                          uint32_t elements, uint32_t lane) {
  constexpr uint32_t kElem = sizeof(Out);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst);
  const uint32_t bytes = elements * kElem;
  const uint32_t misalignment = uint32_t(reinterpret_cast<uintptr_t>(out) % 16);
  const uint32_t to_boundary = (16 - misalignment) % 16;
  const uint32_t head = to_boundary < bytes ? to_boundary : bytes;
  const uint32_t tail = head + (bytes - head) / 16 * 16;
  // D's 16-byte words start `lag` bytes (0 or one element: row_rotation)
  // before the buffer's; the same for every word of the row, so uniform
  // across the warp.
  const uint32_t lag = misalignment % (2 * kElem);
  for (uint32_t x = head + 16 * lane; x < tail; x += 16 * 32) {
    const uint32_t at = rotated_offset<kRowBytes>(rotation, x + lag);
    uint4 word = *reinterpret_cast<const uint4*>(row_buffer + at);
    if (lag != 0) {  // one element of the previous buffer word, then 16 - kElem bytes of word
      const uint32_t before =
          *reinterpret_cast<const uint32_t*>(row_buffer + (at + kRowBytes - 4) % kRowBytes);
      word = word_window(uint4{0, 0, 0, before}, word, (16 - kElem) / 2);
    }
    *reinterpret_cast<uint4*>(out + x) = word;
  }
  const uint32_t x = lane < 16 ? lane * kElem : tail + (lane - 16) * kElem;
  if (x < (lane < 16 ? head : bytes))
    *reinterpret_cast<Out*>(out + x) =
        *reinterpret_cast<const Out*>(row_buffer + rotated_offset<kRowBytes>(rotation, x));
}

}  // namespace bwgemm::epilogue
