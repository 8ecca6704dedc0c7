// SPDX-License-Identifier: MIT
#include "kernels/sm90/variants.h"

#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

const KernelVariant& select_variant(const VariantKey& key) {
  static const VariantTable table = {variants_f16_f16, variants_f16_f32, variants_bf16_bf16,
                                     variants_bf16_f32};
  return bwgemm::select_variant(table, key);
}

// Names give the cluster's tile (both CTAs together), as sm100's do.
const char* config_name(int) { return "sm90_256x256x64_3stage_2cta"; }

TileShape tile_shape(int, DType out_type) {
  // The tile is the same for every variant; an epilogue chunk is 128 bytes
  // of a row, so its width depends on the output type.
  using Any = Config<__half, __half, false, false>;
  return {Any::kClusterSize,
          Any::kBlockRows,
          Any::kBlockCols,
          Any::kBlockK,
          Any::kMNBox,
          128 / int(dtype_size(out_type)),
          64,
          8};
}

}  // namespace bwgemm::sm90
