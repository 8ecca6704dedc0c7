// SPDX-License-Identifier: MIT
#include "kernels/sm90/variants.h"

#include "kernels/sm90/config.h"

namespace bwgemm::sm90 {

const Variant& variants_f16_f16(bool row_mn, bool col_mn);
const Variant& variants_f16_f32(bool row_mn, bool col_mn);
const Variant& variants_bf16_bf16(bool row_mn, bool col_mn);
const Variant& variants_bf16_f32(bool row_mn, bool col_mn);

const Variant& select_variant(DType ab, DType out, bool row_mn, bool col_mn) {
  const bool f32_out = out == DType::F32;
  if (ab == DType::F16)
    return f32_out ? variants_f16_f32(row_mn, col_mn) : variants_f16_f16(row_mn, col_mn);
  return f32_out ? variants_bf16_f32(row_mn, col_mn) : variants_bf16_bf16(row_mn, col_mn);
}

TileShape tile_shape() {
  // All variants share the tile; only the epilogue chunk width depends on
  // the output type, and the launcher asks for it per problem.
  using Any = Config<__half, __half, false, false>;
  return {Any::kClusterSize, Any::kBlockRows, Any::kBlockCols, Any::kBlockK, Any::kMNBox, 0, 64, 8};
}

}  // namespace bwgemm::sm90
