// SPDX-License-Identifier: MIT
// What the epilogue has to do, as compile-time flags: the kernels pick the
// form once per launch (every flag is the same for all tiles) and run a tile
// loop whose epilogue is compiled for that form alone. The fill is unrolled
// over a thread's whole block of accumulators, so every per-value branch it
// carried was copied a hundred times over: with all forms in one fill an sm90
// epilogue was 12K instructions, most never executed, and streaming them
// through the instruction cache cost the kernel 15-40 % (docs/perf.md v12).
// One loop per form, not one dispatch per tile: with all eight forms in one
// loop ptxas spilled the fp32-output kernels.
#pragma once

#include "kernels/common/gemm_params.h"
#include "kernels/ptx/device.cuh"

namespace bwgemm::epilogue {

template <bool kReadC_, bool kStage_, bool kRotated_>
struct Form {
  static constexpr bool kReadC = kReadC_;      // beta != 0: C is read
  static constexpr bool kStage = kStage_;      // bias and/or activation (OutputStage)
  static constexpr bool kRotated = kRotated_;  // D's rows cannot be TMA-stored: rotated staging
};

namespace detail {

template <bool... kKnown, class F>
BWGEMM_DEVICE void with_form(const F& f) {
  f(Form<kKnown...>{});
}

template <bool... kKnown, class F, class... Rest>
BWGEMM_DEVICE void with_form(const F& f, bool next, Rest... rest) {
  if (next)
    with_form<kKnown..., true>(f, rest...);
  else
    with_form<kKnown..., false>(f, rest...);
}

}  // namespace detail

// Calls f(Form<...>{}) with the form of this launch's tiles, beta being the
// value the kernel loaded.
template <class F>
BWGEMM_DEVICE void with_form(const GemmParams& p, float beta, const F& f) {
  detail::with_form(f, beta != 0.0f, p.stage.has_epilogue, p.out_rotated);
}

}  // namespace bwgemm::epilogue
