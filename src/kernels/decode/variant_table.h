// SPDX-License-Identifier: MIT
// kernel_for over a build's entry points: Entry::of<Cfg>() is the kernel of a
// configuration (a __global__ function on the GPU, a host function for the
// emulator).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <utility>

#include "kernels/common/variant_select.h"
#include "kernels/decode/config.h"
#include "kernels/decode/variants.h"

namespace bwgemm::decode {

template <class Entry, class AB, class Out, int... kShapes_>
constexpr std::array<DecodeKernel, kShapeCount> entries_of(
    std::integer_sequence<int, kShapes_...>) {
  return {Entry::template of<Config<AB, Out, kShapes_>>()...};
}

template <class Entry>
DecodeKernel pick_kernel(DType ab, DType out, int shape) {
  if (shape < 0 || shape >= kShapeCount) return nullptr;
  const bool f32_out = out == DType::F32;
  if (!f32_out && out != ab) return nullptr;
#define BWGEMM_DECODE_PICK_(name, AB, Out)                                                         \
  if ((ab == DType::F16) == std::is_same_v<AB, __half> && f32_out == std::is_same_v<Out, float>) { \
    static const std::array<DecodeKernel, kShapeCount> kernels =                                   \
        entries_of<Entry, AB, Out>(std::make_integer_sequence<int, kShapeCount>{});                \
    return kernels[size_t(shape)];                                                                 \
  }
  BWGEMM_FOR_EACH_TYPE_PAIR(BWGEMM_DECODE_PICK_)
#undef BWGEMM_DECODE_PICK_
  return nullptr;
}

}  // namespace bwgemm::decode
