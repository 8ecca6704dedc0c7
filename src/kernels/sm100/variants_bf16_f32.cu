// SPDX-License-Identifier: MIT
// sm100 kernel instantiations: __nv_bfloat16 operands, float output.
#include "kernels/sm100/variants.cuh"

namespace bwgemm::sm100 {

const KernelVariant& variants_bf16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __nv_bfloat16, float>::get(row_mn, col_mn, kFirstVariantIndex + 12);
}

}  // namespace bwgemm::sm100
