// SPDX-License-Identifier: MIT
#include "kernels/sm100/variants.h"

#include "kernels/sm100/config.h"

namespace bwgemm::sm100 {

const KernelVariant* select_variant(int config, const VariantKey& key) {
  static const VariantTable table = {variants_f16_f16, variants_f16_f32, variants_bf16_bf16,
                                     variants_bf16_f32};
  return bwgemm::select_variant(table, config, key);
}

const char* config_name(int) { return "sm100_256x256x64_6stage_2cta_tmem2"; }

TileShape tile_shape(int, DType out_type) {
  // Epilogue chunks are 128 rows x 128 bytes of a row.
  using Any = Config<__half, __half, false, false>;
  return {Any::kClusterSize,
          Any::kBlockRows,
          Any::kBlockCols,
          Any::kBlockK,
          Any::kMNBox,
          128 / int(dtype_size(out_type)),
          Any::kBlockRows,
          8,
          false,
          false,
          false};
}

}  // namespace bwgemm::sm100
