// SPDX-License-Identifier: MIT
// sm90 kernel instantiations: __nv_bfloat16 operands, float output.
#include "kernels/sm90/variants.cuh"

namespace bwgemm::sm90 {

const Variant& variants_bf16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __nv_bfloat16, float>::get(row_mn, col_mn, 12);
}

}  // namespace bwgemm::sm90
