// SPDX-License-Identifier: MIT
// sm100 kernel instantiations: __half operands, __half output.
#include "kernels/sm100/variants.cuh"

namespace bwgemm::sm100 {

const KernelVariant& variants_f16_f16(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __half, __half>::get(row_mn, col_mn, kFirstVariantIndex + 0);
}

}  // namespace bwgemm::sm100
