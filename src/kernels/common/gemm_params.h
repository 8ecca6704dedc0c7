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

// How the producer loads an operand. TMA needs 16-byte aligned bases, row
// pitches and batch strides; an operand whose rows are only element-aligned
// (any leading dimension, GPT-2's 50257) is loaded as kLoadClasses residue
// classes of its strided index instead: rows i, i + 8, i + 16, ... are
// 16 * ld bytes apart, so class c gets its own map from the 16-byte boundary
// at or below row c, with the remainder added to the inner coordinate
// (OperandMaps::shift). Each class box is 8 rows, one 128B-swizzle atom, so
// every 64 rows of a block land transposed as an 8 x 8 grid (class_row).
enum class OperandLoad : uint8_t {
  kTiled,        // one map over the operand
  kRowClasses,   // K-major: classes of M/N rows; the epilogue puts rows back
  kDepthClasses  // M/N-major: classes of K rows; both operands load so, as
                 // only a K order both share leaves the products unchanged
};

constexpr int kLoadClasses = 8;

// Row r of a 64-row group loaded by classes holds row class_row(r) of the
// operand: 8c + q <-> 8q + c (its own inverse).
BWGEMM_HOST_DEVICE constexpr int32_t class_row(int32_t r) {
  return (r & ~63) | ((r & 7) << 3) | ((r >> 3) & 7);
}

struct OperandMaps {
  CUtensorMap maps[kLoadClasses];  // maps[0] alone unless loaded by classes
  int32_t shift[kLoadClasses];     // elements added to map c's inner coordinate
  OperandLoad load;
  bool batched;  // false: every batch reads plane 0
};

// In the kernel view (kernel_view.h): D[rows x cols] = alpha * U V + beta * D,
// U the row operand, V the column operand.
struct GemmParams {
  OperandMaps row, col;  // boxes as the family's config says
  CUtensorMap out_map;   // D, one epilogue chunk per box
  TileScheduler scheduler;
  int32_t rows, cols, depth;
  bool out_batched;
  // D's rows are not 16-byte aligned: no TMA store, the threads store every
  // chunk (out_map is unused).
  bool out_by_threads;
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
