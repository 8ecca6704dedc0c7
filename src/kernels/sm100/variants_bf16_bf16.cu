// SPDX-License-Identifier: MIT
// sm100 kernel instantiations: __nv_bfloat16 operands, __nv_bfloat16 output (one translation unit
// per type pair, so nvcc builds them in parallel).
#include "kernels/sm100/variants.cuh"

namespace bwgemm::sm100 {

BWGEMM_DEFINE_VARIANTS(Family, bf16_bf16, __nv_bfloat16, __nv_bfloat16)

}  // namespace bwgemm::sm100
