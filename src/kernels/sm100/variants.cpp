// SPDX-License-Identifier: MIT
#include "kernels/sm100/variants.h"

#include <cstring>

#include "kernels/sm100/config.h"

namespace bwgemm::sm100 {

const KernelVariant* select_variant(int config, const VariantKey& key) {
  static const VariantTable table = {variants_f16_f16, variants_f16_f32, variants_bf16_bf16,
                                     variants_bf16_f32};
  return bwgemm::select_variant(table, config, key);
}

const char* config_name(int config) {
  return config >= 0 && config < kConfigCount ? kShapes[config].name : "";
}

int config_by_name(const char* name) {
  for (int c = 0; c < kConfigCount; ++c)
    if (std::strcmp(kShapes[c].name, name) == 0) return c;
  return -1;
}

TileShape tile_shape(int config, DType out_type) {
  // An epilogue chunk is 128 rows x 128 bytes of a row, so its width depends
  // on the output type.
  const Shape& s = kShapes[config];
  using Any = Config<__half, __half, false, false>;
  return {s.cluster_size,
          Any::kBlockRows,
          s.block_cols,
          Any::kBlockK,
          Any::kMNBox,
          128 / int(dtype_size(out_type)),
          Any::kBlockRows,
          8,
          s.mode == ClusterMode::kSplitK,
          false,
          false};
}

}  // namespace bwgemm::sm100
