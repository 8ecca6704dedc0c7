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

// Adds beta * D[row][col] to two adjacent columns, reading D only inside
// rows x cols. Called only when beta != 0 (beta == 0 never reads C).
template <class Out>
BWGEMM_HOST_DEVICE void add_scaled_pair(float* v0, float* v1, float beta, const Out* d, int64_t ld,
                                        int32_t row, int32_t col, int32_t rows, int32_t cols) {
  if (row < rows) {
    const Out* src = d + row * ld + col;
    if (col < cols) *v0 += beta * OutTraits<Out>::to_float(src[0]);
    if (col + 1 < cols) *v1 += beta * OutTraits<Out>::to_float(src[1]);
  }
}

// 16-byte moves of 16-byte aligned addresses: vector accesses on the device
// (a memcpy there may be split into element-sized ones), memcpy on the host,
// where the emulator runs the same code.
BWGEMM_HOST_DEVICE uint4 load_16_bytes(const void* src) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const uint4*>(src);
#else
  uint4 v;
  memcpy(&v, src, sizeof v);
  return v;
#endif
}

BWGEMM_HOST_DEVICE void store_16_bytes(void* dst, uint4 v) {
#if defined(__CUDA_ARCH__)
  *static_cast<uint4*>(dst) = v;
#else
  memcpy(dst, &v, sizeof v);
#endif
}

// 16 bytes of a staged row starting at element `first`, which need not be
// 16-byte aligned: the two swizzled units the span straddles, shifted by the
// remainder (a multiple of 2 bytes). The second unit is read only when the span
// really straddles, so a span that ends the row reads nothing past it.
template <class Out>
BWGEMM_HOST_DEVICE uint4 staged_16_bytes(const uint8_t* staging, uint32_t row, uint32_t first) {
  const uint32_t byte = first * uint32_t(sizeof(Out));
  const uint32_t unit = byte & ~15u, shift = byte & 15;
  const uint4 lo = load_16_bytes(staging + swizzled_offset(row, unit));
  if (shift == 0) return lo;
  const uint4 hi = load_16_bytes(staging + swizzled_offset(row, unit + 16));
  const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  // Whole words by selects over constant indices (the array stays in
  // registers), then the half word that 2-byte elements may leave.
  const uint32_t words = shift / 4;
  uint32_t v[5];
  for (int q = 0; q < 5; ++q)
    v[q] = words == 0 ? w[q] : words == 1 ? w[q + 1] : words == 2 ? w[q + 2] : w[q + 3];
  uint32_t r[4];
  for (int q = 0; q < 4; ++q) r[q] = (shift & 2) ? (v[q] >> 16) | (v[q + 1] << 16) : v[q];
  return uint4{r[0], r[1], r[2], r[3]};
}

// Stores a staged chunk of chunk_rows x kChunkCols elements at (row0, col0) of
// D, skipping everything outside rows x cols, for D whose rows a TMA store
// cannot write (leading dimension or base not 16-byte aligned, or a last
// column TMA cannot clip). Each row's span is cut at 16-byte boundaries of
// global memory: whole segments go out as one 16-byte store each (shifted out
// of the staging buffer), the partial first and last ones element by element.
// Consecutive threads take consecutive segments of a row, so a warp writes
// whole rows contiguously.
template <class Out, int kChunkCols>
BWGEMM_HOST_DEVICE void store_chunk_bounded(const uint8_t* staging, int chunk_rows, Out* d,
                                            int64_t ld, int32_t row0, int32_t col0, int32_t rows,
                                            int32_t cols, uint32_t thread, uint32_t threads) {
  constexpr int32_t kPerSegment = 16 / int32_t(sizeof(Out));
  // A misaligned span of kChunkCols elements touches one segment more.
  constexpr int32_t kSegments = kChunkCols / kPerSegment + 1;
  const int32_t valid_cols = cols - col0 < kChunkCols ? cols - col0 : kChunkCols;
  const int32_t valid_rows = rows - row0 < chunk_rows ? rows - row0 : chunk_rows;
  for (uint32_t i = thread; i < uint32_t(valid_rows * kSegments); i += threads) {
    const uint32_t r = i / kSegments;
    const int32_t segment = int32_t(i % kSegments);
    Out* line = d + (row0 + int64_t(r)) * ld + col0;
    // Elements of this row before its first 16-byte boundary's segment start.
    const int32_t lead = int32_t((reinterpret_cast<uintptr_t>(line) / sizeof(Out)) % kPerSegment);
    const int32_t first = segment * kPerSegment - lead;  // chunk column of the segment's start
    if (first >= valid_cols) continue;
    if (first >= 0 && first + kPerSegment <= valid_cols) {
      store_16_bytes(line + first, staged_16_bytes<Out>(staging, r, uint32_t(first)));
      continue;
    }
    const int32_t end = first + kPerSegment < valid_cols ? first + kPerSegment : valid_cols;
    for (int32_t c = first > 0 ? first : 0; c < end; ++c)
      memcpy(line + c, staging + swizzled_offset(r, uint32_t(c) * sizeof(Out)), sizeof(Out));
  }
}

}  // namespace bwgemm::epilogue
