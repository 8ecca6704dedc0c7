// SPDX-License-Identifier: MIT
// What a GEMM kernel launch receives (a __grid_constant__ parameter), shared
// by the kernel families. Built on the host by the families' launchers.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "kernels/common/tile_scheduler.h"
#include "kernels/ptx/device.cuh"

namespace bwgemm {

// alpha or beta: a value, or a device pointer read when the kernel runs.
struct ScalarArg {
  float value;
  const float* device;

  BWGEMM_HOST_DEVICE float load() const { return device != nullptr ? *device : value; }
};

// In the kernel view (kernel_view.h): D[rows x cols] = alpha * U V + beta * D.
struct GemmParams {
  CUtensorMap row_map;  // U, boxes as the family's config says
  CUtensorMap col_map;  // V
  CUtensorMap out_map;  // D, one epilogue chunk per box
  TileScheduler scheduler;
  int32_t rows, cols, depth;
  bool row_batched, col_batched;  // false: every batch reads plane 0
  bool out_batched;
  // The TMA store clips D's columns exactly: cols * elem is a multiple of 16
  // bytes. Otherwise chunks crossing the last column are stored by threads.
  bool out_store_exact;
  void* out;
  int64_t out_ld, out_stride;  // elements
  ScalarArg alpha, beta;
  // Set (to 1) by a kernel whose barrier protocol failed a bounded wait; the
  // host reads it to stop using the family. NULL: the family does not report.
  uint32_t* error_flag;
};

}  // namespace bwgemm
