// SPDX-License-Identifier: MIT
// Instantiation helpers for the per-type translation units (variants_*.cu).
#pragma once

#include "kernels/sm90/gemm_kernel.cuh"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_kernel(const __grid_constant__ GemmParams p) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  gemm_kernel_body<Cfg>(p);
#elif defined(__CUDA_ARCH__)
  __trap();  // built for sm_90a only; never dispatched elsewhere
#endif
}

template <class Cfg>
constexpr Variant make_variant(int index) {
  return {gemm_kernel<Cfg>, Cfg::kSmemBytes, Cfg::kThreads, Cfg::kClusterSize, index};
}

// The four operand-majorness variants for one (AB, Out) pair, indexed by
// row_mn * 2 + col_mn, starting at `first`.
template <class AB, class Out>
struct VariantQuad {
  static const Variant& get(bool row_mn, bool col_mn, int first) {
    static const Variant quad[4] = {
        make_variant<Config<AB, Out, false, false>>(first + 0),
        make_variant<Config<AB, Out, false, true>>(first + 1),
        make_variant<Config<AB, Out, true, false>>(first + 2),
        make_variant<Config<AB, Out, true, true>>(first + 3),
    };
    return quad[int(row_mn) * 2 + int(col_mn)];
  }
};

}  // namespace bwgemm::sm90
