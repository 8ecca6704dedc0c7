// SPDX-License-Identifier: MIT
// The sm100 kernel's instantiations for the emulation build: the same kernel
// body and configurations as variants_*.cu, with host entry points that the
// virtual GPU's threads call (sm100/variants.cpp selects among them).
#include "kernels/common/variant_table.cuh"
#include "kernels/sm100/gemm_kernel.cuh"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {
namespace {

template <class Cfg>
void emulated_kernel(GemmParams p) {
  gemm_kernel_body<Cfg>(p);
}

struct EmulatedFamily {
  template <class AB, class Out, bool kRowMN, bool kColMN>
  using Config = sm100::Config<AB, Out, kRowMN, kColMN>;

  template <class Cfg>
  static KernelVariant variant(int index) {
    return {emulated_kernel<Cfg>, Cfg::kSmemBytes, Cfg::kThreads, Cfg::kClusterSize, index};
  }
};

}  // namespace

// Indices as in variants_*.cu.
const KernelVariant& variants_f16_f16(bool row_mn, bool col_mn) {
  return VariantQuad<EmulatedFamily, __half, __half>::get(row_mn, col_mn, kFirstVariantIndex + 0);
}
const KernelVariant& variants_f16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<EmulatedFamily, __half, float>::get(row_mn, col_mn, kFirstVariantIndex + 4);
}
const KernelVariant& variants_bf16_bf16(bool row_mn, bool col_mn) {
  return VariantQuad<EmulatedFamily, __nv_bfloat16, __nv_bfloat16>::get(row_mn, col_mn,
                                                                        kFirstVariantIndex + 8);
}
const KernelVariant& variants_bf16_f32(bool row_mn, bool col_mn) {
  return VariantQuad<EmulatedFamily, __nv_bfloat16, float>::get(row_mn, col_mn,
                                                                kFirstVariantIndex + 12);
}

}  // namespace bwgemm::sm100
