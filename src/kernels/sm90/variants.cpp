// SPDX-License-Identifier: MIT
#include "kernels/sm90/variants.h"

#include "kernels/common/variant_select.h"
#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

const Variant& variants_f16_f16(bool row_mn, bool col_mn);
const Variant& variants_f16_f32(bool row_mn, bool col_mn);
const Variant& variants_bf16_bf16(bool row_mn, bool col_mn);
const Variant& variants_bf16_f32(bool row_mn, bool col_mn);

const Variant& select_variant(DType ab, DType out, bool row_mn, bool col_mn) {
  static const VariantTable table = {variants_f16_f16, variants_f16_f32, variants_bf16_bf16,
                                     variants_bf16_f32};
  return bwgemm::select_variant(table, ab, out, row_mn, col_mn);
}

TileShape tile_shape() {
  // All variants share the tile; only the epilogue chunk width depends on
  // the output type, and the launcher asks for it per problem.
  using Any = Config<__half, __half, false, false>;
  return {Any::kClusterSize, Any::kBlockRows, Any::kBlockCols, Any::kBlockK, Any::kMNBox, 0, 64, 8};
}

}  // namespace bwgemm::sm90
