// SPDX-License-Identifier: MIT
// Instantiation helpers for the per-type translation units (variants_*.cu),
// compiled for the sm_100f family target (one cubin for CC 10.0 and 10.3).
#pragma once

#include "kernels/common/variant_table.cuh"
#include "kernels/sm100/gemm_kernel.cuh"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_kernel(const __grid_constant__ GemmParams p) {
#if BWGEMM_TCGEN05
  gemm_kernel_body<Cfg>(p);
#elif defined(__CUDA_ARCH__)
  __trap();  // built for the sm_100 family only; never dispatched elsewhere
#endif
}

// What VariantTableOf needs to instantiate this family.
struct Family {
  template <class AB, class Out, bool kRowMN, bool kColMN, int kConfig>
  using Config = ConfigFor<AB, Out, kRowMN, kColMN, kConfig>;
  static constexpr int kFirstVariantIndex = sm100::kFirstVariantIndex;
  static constexpr int kConfigCount = sm100::kConfigCount;
  // No griddepcontrol.wait in the kernel.
  static constexpr bool programmatic_launch(int) { return false; }
  static constexpr bool compiled(int config, bool row_mn, bool col_mn) {
    return layout_compiled(config, row_mn, col_mn);
  }

  template <class Cfg>
  static KernelEntry entry() {
    return gemm_kernel<Cfg>;
  }
};

}  // namespace bwgemm::sm100
