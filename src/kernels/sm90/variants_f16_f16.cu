// SPDX-License-Identifier: MIT
// sm90 kernel instantiations: __half operands, __half output (one translation unit
// per type pair, so nvcc builds them in parallel).
#include "kernels/sm90/variants.cuh"

namespace bwgemm::sm90 {

BWGEMM_DEFINE_VARIANTS(Family, f16_f16, __half, __half)

}  // namespace bwgemm::sm90
