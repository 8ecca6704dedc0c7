// SPDX-License-Identifier: MIT
#include "kernels/sm90/variants.h"

#include <cstring>

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

bool reads_unaligned_b(const GemmProblem& p, int config) {
  if (config == kDecodeConfig) return false;
  const RowClassUse use = row_class_use(to_kernel_view(p), tile_shape(config, p.c_type));
  return use == RowClassUse::kRowOperand || use == RowClassUse::kRowWindows;
}

TileShape tile_shape(int config, DType out_type) {
  // An epilogue chunk is 128 bytes of a row, so its width depends on the
  // output type.
  const Shape& s = kShapes[config];
  using Any = Config<__half, __half, false, false>;
  return {s.cluster_size,
          s.row_tile_rows > 0 ? s.row_tile_rows : 64 * s.consumers,
          s.block_cols,
          Any::kBlockK,
          Any::kMNBox,
          128 / int(dtype_size(out_type)),
          64,
          8,
          s.mode == ClusterMode::kSplitK,
          s.mode == ClusterMode::kMulticast && s.row_windows == 0,
          s.row_windows > 0 || s.register_windows,
          s.row_tile_rows,
          s.register_windows,
          s.split_tiles};
}

}  // namespace bwgemm::sm90
