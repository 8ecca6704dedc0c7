// SPDX-License-Identifier: MIT
#include "kernels/sm90/variants.h"

#include <array>
#include <cstring>
#include <utility>

#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

const KernelVariant* select_variant(int config, const VariantKey& key) {
  static const VariantTable table = {variants_f16_f16, variants_f16_f32, variants_bf16_bf16,
                                     variants_bf16_f32};
  return bwgemm::select_variant(table, config, key);
}

// Names give the cluster's tile, as sm100's do; the decode kernel's, the
// most tokens it takes.
const char* config_name(int config) {
  if (config == kDecodeConfig) return "sm90_decode_n32";
  return config >= 0 && config < kConfigCount ? kShapes[config].name : "";
}

int config_by_name(const char* name) {
  return std::strcmp(config_name(kDecodeConfig), name) == 0 ? kDecodeConfig : shape_index(name);
}

bool config_compiled(int config, const VariantKey& key) {
  return config >= 0 && config < kConfigCount && layout_compiled(config, key.row_mn, key.col_mn);
}

namespace {

// Whether each configuration's loader warps copy operands the TMA cannot
// address (Config::kThreadLoads), for 16-bit and for fp32 output (whose
// staging may be larger).
template <class Out, int... kConfigs>
constexpr std::array<bool, kConfigCount> thread_loads(std::integer_sequence<int, kConfigs...>) {
  return {Config<__half, Out, false, false, kConfigs>::kThreadLoads...};
}
constexpr auto kThreadLoads16 =
    thread_loads<__half>(std::make_integer_sequence<int, kConfigCount>{});
constexpr auto kThreadLoads32 =
    thread_loads<float>(std::make_integer_sequence<int, kConfigCount>{});

}  // namespace

TileShape tile_shape(int config, DType out_type) {
  // An epilogue chunk is 128 bytes of a row, so its width depends on the
  // output type.
  const Shape& s = kShapes[config];
  using Any = Config<__half, __half, false, false>;
  return {s.cluster_size,
          64 * s.consumers,
          s.block_cols,
          Any::kBlockK,
          Any::kMNBox,
          128 / int(dtype_size(out_type)),
          64,
          8,
          s.mode == ClusterMode::kSplitK,
          (out_type == DType::F32 ? kThreadLoads32 : kThreadLoads16)[size_t(config)]};
}

}  // namespace bwgemm::sm90
