// SPDX-License-Identifier: MIT
#include "kernels/sm90/policy.h"

#include <cstdint>

#include "kernels/common/launch_params.h"

namespace bwgemm::sm90 {

// Measured with bwgemm-bench --suite all on an H200 (132 SMs, cuBLAS 13.1,
// sustained mode, 2026-11-21; docs/perf.md has the whole table):
//  - m, n and k multiples of 16 (cuBLAS's fast path): the kernel is at
//    0.97-1.02x cuBLAS on 2048..16384-sized shapes (seed, llm, k-sweep),
//    0.92x at K = 512, 0.5-0.6x on 512..1024 cubes and 0.27-0.65x on skinny
//    shapes. Not a measurable win anywhere: cuBLAS keeps them.
//  - m, n or k not a multiple of 16, leading dimensions 16-byte aligned: cuBLAS
//    drops to 62-177 TFLOP/s and the kernel runs at 287-737 (2.7-7.9x) from
//    64 cluster tiles up (2047x2049x1023, 3000x5000x700, 4095x4097x4096, ...),
//    but at 0.52-0.57x on 1000^3 (16 cluster tiles: most SMs idle).
//  - Only same-type outputs were measured; fp32 outputs stay with cuBLAS.
//  - D's leading dimension or base not 16-byte aligned (GPT-2's logits with
//    the vocabulary 50257): cuBLAS at 96 TFLOP/s, the kernel (storing D by
//    threads) at 434 on an H100 (docs/perf.md). Unaligned A or B: the kernel
//    cannot load them (launch_params.h) and forwards.
bool policy_prefers_kernel(const GemmProblem& p, const DeviceCaps& caps) {
  if (p.c_type != p.ab_type) return false;
  const bool cublas_fast_path = p.m % 16 == 0 && p.n % 16 == 0 && p.k % 16 == 0 &&
                                tma_addressable(p.a, p.lda, 0, p.ab_type) &&
                                tma_addressable(p.b, p.ldb, 0, p.ab_type) &&
                                tma_addressable(p.d, p.ldd, 0, p.c_type);
  if (cublas_fast_path) return false;
  // At least one full wave of 2-CTA clusters of 256 x 256 output tiles.
  const int64_t cluster_tiles = (p.n + 255) / 256 * ((p.m + 255) / 256) * p.batch;
  return p.k >= 512 && cluster_tiles >= caps.sm_count / 2;
}

}  // namespace bwgemm::sm90
