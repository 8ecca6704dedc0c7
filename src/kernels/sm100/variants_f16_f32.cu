// SPDX-License-Identifier: MIT
// sm100 kernel instantiations: __half operands, float output.
#include "kernels/sm100/variants.cuh"

namespace bwgemm::sm100 {

const KernelVariant& variants_f16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __half, float>::get(row_mn, col_mn, kFirstVariantIndex + 4);
}

}  // namespace bwgemm::sm100
