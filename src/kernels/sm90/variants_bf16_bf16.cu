// SPDX-License-Identifier: MIT
// sm90 kernel instantiations: __nv_bfloat16 operands, __nv_bfloat16 output.
#include "kernels/sm90/variants.cuh"

namespace bwgemm::sm90 {

const Variant& variants_bf16_bf16(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __nv_bfloat16, __nv_bfloat16>::get(row_mn, col_mn, 8);
}

}  // namespace bwgemm::sm90
