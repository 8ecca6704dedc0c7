// SPDX-License-Identifier: MIT
#include "kernels/sm100/selection.h"

#include <array>
#include <utility>

#include "core/env_config.h"
#include "kernels/common/config_table.h"
#include "kernels/common/kernel_view.h"
#include "kernels/common/launch_params.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {
namespace {

constexpr std::array<uint32_t, kConfigCount> kSmemBytes =
    config_smem_bytes<ConfigFor>(std::make_integer_sequence<int, kConfigCount>{});

// BWGEMM_SM100_CONFIG's configuration, or -1.
int named_config() {
  static const int named =
      config_named_by("BWGEMM_SM100_CONFIG", env_config().sm100_config, config_by_name, "sm100");
  return named;
}

}  // namespace

bool config_takes(const GemmProblem& p, const DeviceCaps& caps, int config) {
  if (config < 0 || config >= kConfigCount) return false;
  const VariantKey key = variant_key(to_kernel_view(p));
  return layout_compiled(config, key.row_mn, key.col_mn) &&
         caps.smem_per_block_optin >= int(kSmemBytes[size_t(config)]);
}

bool runs_on(const DeviceCaps& caps) {
  return caps.cc_major == 10 && (caps.cc_minor == 0 || caps.cc_minor == 3);
}

bwgemmReason_t supports(const GemmProblem&, const DeviceCaps& caps) {
  // Configuration 0 runs everything the family takes; the others where named.
  if (caps.smem_per_block_optin < int(kSmemBytes[0])) return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

ConfigChoice choose(const GemmProblem& p, const DeviceCaps& caps, bool forced, int named) {
  const auto stride = [&](int64_t s) { return p.batch > 1 ? s : 0; };
  const bool large = double(p.m) * double(p.n) * double(p.k) >= double(int64_t{1} << 30);
  const bool aligned = tma_addressable(p.a, p.lda, stride(p.stride_a), p.ab_type) &&
                       tma_addressable(p.b, p.ldb, stride(p.stride_b), p.ab_type) &&
                       tma_addressable(p.d, p.ldd, stride(p.stride_d), p.c_type);
  // A side narrower than the pair's tile (a decode's few tokens) fills a
  // sliver of it: on sm_90 such calls ran at 0.43-0.76x cuBLAS on 256 x 256
  // tiles (docs/perf.md v32).
  const TileShape tile = tile_shape(0, p.c_type);
  const bool narrow = p.m < tile.block_rows * tile.row_ctas() || p.n < tile.block_cols;
  ConfigChoice s{-1,
                 "unmeasured default: cuBLAS below 2^30 multiply-adds, unaligned or m or n < 256"};
  if (large && aligned && !narrow)
    s = {0, "unmeasured default: products of 2^30 multiply-adds, aligned, m and n >= 256"};
  else if (forced)
    s = {0, "forced kernel: the large-tile configuration"};
  if (s.config >= 0 && named >= 0 && config_takes(p, caps, named))
    s = {named, "named by BWGEMM_SM100_CONFIG"};
  return s;
}

ConfigChoice choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced) {
  return choose(p, caps, forced, named_config());
}

}  // namespace bwgemm::sm100
