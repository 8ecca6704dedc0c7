// SPDX-License-Identifier: MIT
// Epilogue pieces shared by the kernel families: alpha/beta and conversion of
// fp32 accumulators, the 128B-swizzled staging layout, and the bounded store
// of a staged chunk by threads (for chunks a TMA store cannot clip exactly).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

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
// rows x cols. Called only when beta != 0 (beta == 0 never reads C).
template <class Out>
BWGEMM_HOST_DEVICE void add_scaled_pair(float* v0, float* v1, float beta, const Out* c, int64_t ld,
                                        int32_t row, int32_t col, int32_t rows, int32_t cols) {
  if (row < rows) {
    const Out* src = c + row * ld + col;
    if (col < cols) *v0 += beta * OutTraits<Out>::to_float(src[0]);
    if (col + 1 < cols) *v1 += beta * OutTraits<Out>::to_float(src[1]);
  }
}

// Stores a staged chunk of rows x chunk_cols elements at (row0, col0) of D
// element by element, skipping everything outside rows x cols: where a TMA
// store would write past the last column, or D's rows are not 16-byte aligned.
// Consecutive threads write consecutive elements of a row. (16-byte segments
// with shifted ends, batched, or handed to store warps were all measured
// slower on GPT-2's logits call: docs/perf.md v8.)
template <class Out, int kChunkCols>
BWGEMM_HOST_DEVICE void store_chunk_bounded(const uint8_t* staging, int chunk_rows, Out* d,
                                            int64_t ld, int32_t row0, int32_t col0, int32_t rows,
                                            int32_t cols, uint32_t thread, uint32_t threads) {
  for (uint32_t i = thread; i < uint32_t(chunk_rows) * kChunkCols; i += threads) {
    const uint32_t r = i / kChunkCols, c = i % kChunkCols;
    if (row0 + int32_t(r) < rows && col0 + int32_t(c) < cols) {
      const uint32_t off = swizzled_offset(r, c * sizeof(Out));
      d[(row0 + r) * ld + col0 + c] = *reinterpret_cast<const Out*>(staging + off);
    }
  }
}

}  // namespace bwgemm::epilogue
