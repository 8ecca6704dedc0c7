// SPDX-License-Identifier: MIT
// Instantiation helpers for the per-type translation units (variants_*.cu).
#pragma once

#include "kernels/common/variant_table.cuh"
#include "kernels/sm90/gemm_kernel.cuh"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kCtasPerSm)
    gemm_kernel(const __grid_constant__ GemmParams p) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  gemm_kernel_body<Cfg>(p);
#elif defined(__CUDA_ARCH__)
  __trap();  // built for sm_90a only; never dispatched elsewhere
#endif
}

// What VariantTableOf needs to instantiate this family.
struct Family {
  template <class AB, class Out, bool kRowMN, bool kColMN, int kConfig>
  using Config = ConfigFor<AB, Out, kRowMN, kColMN, kConfig>;
  static constexpr int kFirstVariantIndex = sm90::kFirstVariantIndex;
  static constexpr int kConfigCount = sm90::kConfigCount;
  static constexpr bool programmatic_launch(int config) { return kShapes[config].programmatic; }
  static constexpr bool compiled(int config, bool row_mn, bool col_mn) {
    return layout_compiled(config, row_mn, col_mn);
  }

  template <class Cfg>
  static KernelEntry entry() {
    return gemm_kernel<Cfg>;
  }
};

}  // namespace bwgemm::sm90
