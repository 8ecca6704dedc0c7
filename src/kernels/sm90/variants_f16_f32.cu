// SPDX-License-Identifier: MIT
// sm90 kernel instantiations: __half operands, float output.
#include "kernels/sm90/variants.cuh"

namespace bwgemm::sm90 {

const Variant& variants_f16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __half, float>::get(row_mn, col_mn, 4);
}

}  // namespace bwgemm::sm90
