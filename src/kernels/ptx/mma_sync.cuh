// SPDX-License-Identifier: MIT
// Warp-level tensor-core MMA (PTX ISA 9.7.14, mma.sync m16n8k16), the
// in-register transpose that turns loaded values into its fragments
// (movmatrix) and the 16-byte global loads that feed it directly from memory
// (and an L2 prefetch ahead of them), for kernels that stream an operand
// without staging it in shared memory. Available on sm_80 and later (the
// prefetch on sm_90). The emulation build computes the step from the warp's
// fragments, gathered with shfl_idx (fp32 sums in k order; the tensor core's
// own order of addition may differ in the last bits).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <type_traits>

#include "kernels/ptx/device.cuh"
#include "kernels/ptx/warp.cuh"

namespace bwgemm::ptx {

// Fragments of one m16n8k16 step, each register two 16-bit values. With
// g = lane / 4 and q = lane % 4: a[0] = A(g, 2q..2q+1), a[1] = A(g+8, 2q..),
// a[2] = A(g, 2q+8..), a[3] = A(g+8, 2q+8..); b[0] = B(2q..2q+1, g),
// b[1] = B(2q+8.., g); c[0..1] = C(g, 2q..2q+1), c[2..3] = C(g+8, 2q..).
#if defined(BWGEMM_EMU)
namespace detail {

// One of the two 16-bit values of a register (0: the low half).
template <class AB>
inline float half_of(uint32_t pair, int which) {
  const auto bits = static_cast<unsigned short>(pair >> (16 * which));
  if constexpr (std::is_same_v<AB, __nv_bfloat16>) {
    __nv_bfloat16_raw raw;
    raw.x = bits;
    return __bfloat162float(__nv_bfloat16(raw));
  } else {
    __half_raw raw;
    raw.x = bits;
    return __half2float(__half(raw));
  }
}

}  // namespace detail
#endif

template <class AB>
BWGEMM_DEVICE void mma_m16n8k16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
#if defined(BWGEMM_EMU)
  // A(r, k) lives in lane (r % 8) * 4 + (k % 8) / 2, register (r >= 8) +
  // 2 * (k >= 8); B(k, n) in lane n * 4 + (k % 8) / 2, register k >= 8.
  const uint32_t lane = emu::thread_index() % 32, g = lane / 4, q = lane % 4;
  float a_rows[2][16], b_cols[2][16];
  for (uint32_t src = 0; src < 4; ++src) {
    for (int reg = 0; reg < 4; ++reg) {
      const uint32_t pair = emu::shfl_idx(a[reg], g * 4 + src);
      const int k = int(2 * src) + 8 * (reg / 2);
      for (int e = 0; e < 2; ++e) a_rows[reg % 2][k + e] = detail::half_of<AB>(pair, e);
    }
    for (uint32_t col = 0; col < 2; ++col)
      for (int reg = 0; reg < 2; ++reg) {
        const uint32_t pair = emu::shfl_idx(reg == 0 ? b0 : b1, (2 * q + col) * 4 + src);
        const int k = int(2 * src) + 8 * reg;
        for (int e = 0; e < 2; ++e) b_cols[col][k + e] = detail::half_of<AB>(pair, e);
      }
  }
  for (int r = 0; r < 2; ++r)
    for (int col = 0; col < 2; ++col)
      for (int k = 0; k < 16; ++k) c[2 * r + col] += a_rows[r][k] * b_cols[col][k];
#elif defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<AB, __nv_bfloat16>)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// movmatrix.sync.aligned.m8n8.trans.b16: the transpose of an 8 x 8 matrix
// of 16-bit values held one register per lane, lane g * 4 + q holding row g,
// columns 2q and 2q + 1 (the low half the first), in and out.
BWGEMM_DEVICE uint32_t movmatrix_trans(uint32_t x) {
#if defined(BWGEMM_EMU)
  // Out row g, columns 2q, 2q + 1 = in column g of rows 2q and 2q + 1.
  const uint32_t lane = emu::thread_index() % 32, g = lane / 4, q = lane % 4;
  const uint32_t lo = shfl_idx(x, 2 * q * 4 + g / 2), hi = shfl_idx(x, (2 * q + 1) * 4 + g / 2);
  const uint32_t shift = 16 * (g % 2);
  return (lo >> shift & 0xffffu) | (hi >> shift & 0xffffu) << 16;
#elif defined(__CUDA_ARCH__)
  uint32_t out;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(out) : "r"(x));
  return out;
#else
  return x;
#endif
}

// 16 bytes read once: not kept in L1 (the weight of a decode GEMM streams
// past), fetched from DRAM in 256-byte L2 sectors. `p` is 16-byte aligned
// and read-only for the kernel's lifetime.
BWGEMM_DEVICE uint4 load_streamed_16(const void* p) {
  uint4 v{};
#if defined(BWGEMM_EMU)
  std::memcpy(&v, p, sizeof v);
#elif defined(__CUDA_ARCH__)
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
#endif
  return v;
}

// Asks L2 for `bytes` (a multiple of 16) from a 16-byte-aligned `p` (PTX ISA
// cp.async.bulk.prefetch): a hint, nothing is read architecturally.
BWGEMM_DEVICE void prefetch_l2(const void* p, uint32_t bytes) {
#if defined(BWGEMM_EMU)
  emu::prefetch_l2(p, bytes);
#elif defined(__CUDA_ARCH__)
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes) : "memory");
#endif
}

// 16 bytes that other warps and CTAs read too (cached in L1 and L2).
BWGEMM_DEVICE uint4 load_shared_16(const void* p) {
  uint4 v{};
#if defined(BWGEMM_EMU)
  std::memcpy(&v, p, sizeof v);
#elif defined(__CUDA_ARCH__)
  asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
#endif
  return v;
}

}  // namespace bwgemm::ptx
