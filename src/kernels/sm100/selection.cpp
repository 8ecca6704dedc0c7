// SPDX-License-Identifier: MIT
#include "kernels/sm100/selection.h"

#include "kernels/common/launch_params.h"
#include "kernels/sm100/config.h"

namespace bwgemm::sm100 {

bool runs_on(const DeviceCaps& caps) {
  return caps.cc_major == 10 && (caps.cc_minor == 0 || caps.cc_minor == 3);
}

bwgemmReason_t supports(const GemmProblem&, const DeviceCaps& caps) {
  // Every variant has the same shared-memory footprint and tile.
  if (caps.smem_per_block_optin < int(Config<__half, __half, false, false>::kSmemBytes))
    return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

ConfigChoice choose_config(const GemmProblem& p, const DeviceCaps&, bool forced) {
  if (forced) return {0, "forced kernel"};
  const auto stride = [&](int64_t s) { return p.batch > 1 ? s : 0; };
  const bool large = double(p.m) * double(p.n) * double(p.k) >= double(int64_t{1} << 30);
  const bool aligned = tma_addressable(p.a, p.lda, stride(p.stride_a), p.ab_type) &&
                       tma_addressable(p.b, p.ldb, stride(p.stride_b), p.ab_type) &&
                       tma_addressable(p.d, p.ldd, stride(p.stride_d), p.c_type);
  // A side narrower than the pair's tile (a decode's few tokens) fills a
  // sliver of it: on sm_90 such calls ran at 0.43-0.76x cuBLAS on 256 x 256
  // tiles (docs/perf.md v32).
  using Tile = Config<__half, __half, false, false>;
  const bool narrow = p.m < Tile::kBlockRows * Tile::kRowCtas || p.n < Tile::kBlockCols;
  if (large && aligned && !narrow)
    return {0, "unmeasured default: products of 2^30 multiply-adds, aligned, m and n >= 256"};
  return {-1, "unmeasured default: cuBLAS below 2^30 multiply-adds, unaligned or m or n < 256"};
}

}  // namespace bwgemm::sm100
