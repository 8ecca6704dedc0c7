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

// Stores of `bytes` (2, 4, 8 or 16) aligned to their size, taken from a
// 16-byte value at byte `offset` (a multiple of `bytes`): vector accesses on
// the device (a memcpy there may be split into element-sized ones), memcpy on
// the host, where the emulator runs the same code.
BWGEMM_HOST_DEVICE uint32_t word_of(uint4 v, uint32_t i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

BWGEMM_HOST_DEVICE void store_piece(uint8_t* dst, uint4 v, uint32_t offset, uint32_t bytes) {
  const uint32_t word = word_of(v, offset / 4);
#if defined(__CUDA_ARCH__)
  switch (bytes) {
    case 16: *reinterpret_cast<uint4*>(dst) = v; break;
    case 8: *reinterpret_cast<uint2*>(dst) = make_uint2(word, word_of(v, offset / 4 + 1)); break;
    case 4: *reinterpret_cast<uint32_t*>(dst) = word; break;
    default: *reinterpret_cast<uint16_t*>(dst) = uint16_t(word >> (8 * (offset & 2)));
  }
#else
  const uint32_t words[4] = {v.x, v.y, v.z, v.w};
  memcpy(dst, reinterpret_cast<const uint8_t*>(words) + offset, bytes);
  (void)word;
#endif
}

BWGEMM_HOST_DEVICE uint4 load_16_bytes(const uint8_t* src) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const uint4*>(src);
#else
  uint4 v;
  memcpy(&v, src, sizeof v);
  return v;
#endif
}

// The 16 bytes of a staged 128-byte row that start at element `first`, which
// need not be 16-byte aligned and may lie up to one 16-byte unit outside the
// row (-16 < first * sizeof(Out) < 128): the two swizzled units the span
// straddles, shifted by the remainder (a multiple of 2 bytes), bytes outside
// the row zero and never read.
template <class Out>
BWGEMM_HOST_DEVICE uint4 staged_16_bytes(const uint8_t* staging, uint32_t row, int32_t first) {
  const int32_t byte = first * int32_t(sizeof(Out));
  const int32_t unit = byte >= 0 ? byte & ~15 : -16;
  const uint32_t shift = uint32_t(byte - unit);
  const uint4 zero{0, 0, 0, 0};
  const uint4 lo = unit >= 0 ? load_16_bytes(staging + swizzled_offset(row, uint32_t(unit))) : zero;
  if (shift == 0) return lo;
  const uint4 hi =
      unit + 16 < 128 ? load_16_bytes(staging + swizzled_offset(row, uint32_t(unit + 16))) : zero;
  // Whole words by selects, then the half word that 2-byte elements may leave.
  const uint32_t words = shift / 4;
  const uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  uint32_t v[5];
  for (int q = 0; q < 5; ++q)
    v[q] = words == 0 ? w[q] : words == 1 ? w[q + 1] : words == 2 ? w[q + 2] : w[q + 3];
  uint32_t r[4];
  for (int q = 0; q < 4; ++q) r[q] = (shift & 2) ? (v[q] >> 16) | (v[q + 1] << 16) : v[q];
  return uint4{r[0], r[1], r[2], r[3]};
}

// Stores elements [a, b) of one 16-byte segment of global memory (seg: its
// aligned start) from `v`, the segment's 16 bytes: one vector store when the
// whole segment is valid, else the fewest aligned pieces (at most 2, 4, 8
// bytes rising to an 8-byte boundary, then 8, 4, 2 falling).
template <class Out>
BWGEMM_HOST_DEVICE void store_segment(uint8_t* seg, uint4 v, int32_t a, int32_t b) {
  constexpr int32_t kSize = int32_t(sizeof(Out)), kPerSegment = 16 / kSize;
  if (a == 0 && b == kPerSegment) return store_piece(seg, v, 0, 16);
  for (int32_t p = 1; p < kPerSegment; p *= 2)
    if ((a & p) != 0 && a + p <= b) {
      store_piece(seg + a * kSize, v, uint32_t(a * kSize), uint32_t(p * kSize));
      a += p;
    }
  for (int32_t p = kPerSegment / 2; p >= 1; p /= 2)
    if (a + p <= b) {
      store_piece(seg + a * kSize, v, uint32_t(a * kSize), uint32_t(p * kSize));
      a += p;
    }
}

// Stores a staged chunk of chunk_rows x kChunkCols elements at (row0, col0) of
// D, skipping everything outside rows x cols, for D whose rows a TMA store
// cannot write (leading dimension or base not 16-byte aligned, or a last
// column TMA cannot clip). Each row's span is cut at 16-byte boundaries of
// global memory into kChunkCols / kPerSegment + 1 segments (the first and last
// partial, or the last empty when the row is aligned), each shifted out of the
// swizzled staging buffer as one 16-byte value. The inner segments (one vector
// store each) are spread over the threads first, then the two ends of every
// row (a few aligned pieces each), so that no warp waits on a few threads'
// partial stores.
template <class Out, int kChunkCols>
BWGEMM_HOST_DEVICE void store_chunk_bounded(const uint8_t* staging, int chunk_rows, Out* d,
                                            int64_t ld, int32_t row0, int32_t col0, int32_t rows,
                                            int32_t cols, uint32_t thread, uint32_t threads) {
  constexpr int32_t kPerSegment = 16 / int32_t(sizeof(Out));
  constexpr int32_t kInner = kChunkCols / kPerSegment - 1;  // segments 1 .. kInner
  const int32_t valid_cols = cols - col0 < kChunkCols ? cols - col0 : kChunkCols;
  const int32_t valid_rows = rows - row0 < chunk_rows ? rows - row0 : chunk_rows;
  // Segment `segment` of row r: its aligned start in D, and its first
  // element's chunk column (negative for the leading partial segment).
  const auto store = [&](uint32_t r, int32_t segment) {
    Out* line = d + (row0 + int64_t(r)) * ld + col0;
    const int32_t lead = int32_t((reinterpret_cast<uintptr_t>(line) / sizeof(Out)) % kPerSegment);
    const int32_t first = segment * kPerSegment - lead;
    const int32_t a = first < 0 ? -first : 0;
    const int32_t b = valid_cols - first < kPerSegment ? valid_cols - first : kPerSegment;
    if (a >= b) return;
    store_segment<Out>(reinterpret_cast<uint8_t*>(line + first),
                       staged_16_bytes<Out>(staging, r, first), a, b);
  };
  for (uint32_t i = thread; i < uint32_t(valid_rows * kInner); i += threads)
    store(i / kInner, 1 + int32_t(i % kInner));
  for (uint32_t i = thread; i < uint32_t(valid_rows * 2); i += threads)
    store(i / 2, (i % 2) * (kInner + 1));
}

}  // namespace bwgemm::epilogue
