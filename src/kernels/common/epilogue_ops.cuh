// SPDX-License-Identifier: MIT
// The per-value output stage both kernel families apply after
// alpha * acc + beta * C, as cuBLASLt defines its epilogues: the bias (one
// value per row of column-major D, i.e. per column of the kernel view) is
// added first, then the activation (ReLU, or GELU in its tanh form).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "kernels/common/gemm_params.h"
#include "kernels/ptx/device.cuh"

namespace bwgemm::epilogue {

// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))): cuBLASLt's GELU.
BWGEMM_HOST_DEVICE float gelu_tanh(float x) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  return 0.5f * x * (1.0f + tanhf(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

BWGEMM_HOST_DEVICE float activate(EpilogueActivation activation, float x) {
  switch (activation) {
    case EpilogueActivation::kRelu: return x > 0.0f ? x : 0.0f;  // NaN -> 0, as fmaxf
    case EpilogueActivation::kGelu: return gelu_tanh(x);
    case EpilogueActivation::kNone: break;
  }
  return x;
}

// The bias of kernel-view column `col` in batch `batch`.
BWGEMM_HOST_DEVICE float bias_at(const OutputStage& p, int32_t batch, int32_t col) {
  const int64_t i = int64_t(batch) * p.bias_stride + col;
  switch (p.bias_type) {
    case EpilogueBiasType::kF32: return static_cast<const float*>(p.bias)[i];
    case EpilogueBiasType::kF16: return __half2float(static_cast<const __half*>(p.bias)[i]);
    case EpilogueBiasType::kBF16:
      return __bfloat162float(static_cast<const __nv_bfloat16*>(p.bias)[i]);
  }
  return 0.0f;
}

// Bias and activation of one value of kernel-view column `col`.
BWGEMM_HOST_DEVICE float finish(const OutputStage& s, int32_t batch, int32_t col, float v) {
  if (s.bias != nullptr) v += bias_at(s, batch, col);
  return activate(s.activation, v);
}

// The same for two adjacent kernel-view columns col, col + 1 of one row (a
// thread's accumulator pair); kStage: p.stage.has_epilogue, known at compile
// time so that the plain GEMM's fill holds none of this code (epilogue_form.cuh).
// Columns past p.cols are never stored; their bias is not read.
template <bool kStage>
BWGEMM_HOST_DEVICE void finish_pair(const GemmParams& p, int32_t batch, int32_t col, float* v0,
                                    float* v1) {
  if constexpr (kStage) {
    // Columns outside D (past the last, or before the first in a kOut row
    // class's first block) read no bias.
    if (uint32_t(col) < uint32_t(p.cols)) *v0 = finish(p.stage, batch, col, *v0);
    if (uint32_t(col + 1) < uint32_t(p.cols)) *v1 = finish(p.stage, batch, col + 1, *v1);
  }
}

}  // namespace bwgemm::epilogue
