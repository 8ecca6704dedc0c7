// SPDX-License-Identifier: MIT
// sm90 kernel instantiations: __half operands, __half output.
#include "kernels/sm90/variants.cuh"

namespace bwgemm::sm90 {

const Variant& variants_f16_f16(bool row_mn, bool col_mn) {
  return VariantQuad<Family, __half, __half>::get(row_mn, col_mn, 0);
}

}  // namespace bwgemm::sm90
