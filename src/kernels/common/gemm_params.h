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

// The output stage after alpha/beta (epilogue_ops.cuh), as cuBLASLt's
// epilogues define it.
enum class EpilogueActivation : uint8_t { kNone, kRelu, kGelu };
enum class EpilogueBiasType : uint8_t { kF32, kF16, kBF16 };

// alpha, beta and the output stage after them (epilogue_ops.cuh), as
// cuBLASLt's epilogues define it; every kernel's parameters hold one.
struct OutputStage {
  ScalarArg alpha, beta;
  // Bias and activation; has_epilogue false: neither (the plain GEMM).
  bool has_epilogue;
  EpilogueActivation activation;
  EpilogueBiasType bias_type;
  const void* bias;     // NULL: no bias
  int64_t bias_stride;  // elements between the bias vectors of a batch
};

// Where a kernel whose barrier protocol failed a bounded wait reports it: it
// stores `tag` (non-zero, naming the call that launched it) in *word, a
// host-mapped word the host reads without synchronising. word NULL: the
// family does not report.
struct ErrorFlag {
  uint32_t* word;
  uint32_t tag;
};

// Where the scheduler splits tiles over K (tile_scheduler.h), in the call's
// workspace (tile_split.h): each piece's fp32 partial blocks, and per block
// the pieces arrived so far (launch_persistent zeroes the `arrival_count`
// counters before the kernel). NULL: no split.
struct TileSplitBuffers {
  float* partials;
  uint32_t* arrivals;
  uint32_t arrival_count;
};

// An operand's tensor map (boxes as the family's config says).
struct OperandMap {
  CUtensorMap map;
  bool batched;  // false: every batch reads plane 0
};

// Row classes (launch_params.h, row_class_use): D's rows r with r % 8 == c
// form class c, computed as a GEMM of their own: the scheduler's batch is the
// class, and class c's rows of the row operand and of D are maps of their own
// with 8 leading dimensions between rows and bases rounded down to 16 bytes,
// `shift` elements before the class's first row. The shift is taken up by the
// column operand, whose outer coordinate moves with it (a TMA box's innermost
// coordinate must be 16-byte aligned, its outer ones need not be):
//  - kRowOperand: the row operand's rows start unaligned. Its class map is
//    read from k = 0 at the rounded base, so every row's first `shift`
//    elements precede it: the column operand is read from k = -shift (zeros
//    there) and the consumers zero those elements of the first k block;
//  - kOut: D's rows start unaligned. The column operand is read from column
//    -shift, so the accumulators' columns start at D's column -shift and each
//    class's D map at the rounded base stores aligned boxes.
// kRowWindows is not a cut of D's rows: an M/N-major row operand whose
// leading dimension is not a multiple of 16 bytes (its rows are D's rows, its
// unaligned pitch is between k's). Its columns k with k % 8 == c are 8
// leading dimensions apart: row_map[c] maps them from a rounded base, `shift`
// elements before row 0, unswizzled. A k block's 8 boxes (a "window") hold the
// CTA's rows from row0 - shift on, 8 more than the tile: the producer's
// shifter warps move each k's rows by its class's shift into the stage's
// swizzled layout (sm90 gemm_kernel.cuh). The scheduler, rows and D are the
// plain ones; classes.rows and classes.out_map are unused.
enum class RowClassUse : uint8_t { kNone, kRowOperand, kOut, kRowWindows };
constexpr int kRowClasses = 8;

// Whether the classes cut D's rows (the scheduler's batch is the class).
BWGEMM_HOST_DEVICE constexpr bool cuts_rows(RowClassUse use) {
  return use == RowClassUse::kRowOperand || use == RowClassUse::kOut;
}

struct RowClasses {
  RowClassUse use;
  int32_t shift[kRowClasses];  // elements
  int32_t rows[kRowClasses];   // D's rows in each class
  CUtensorMap row_map[kRowClasses];
  CUtensorMap out_map[kRowClasses];
};

// In the kernel view (kernel_view.h):
// D[rows x cols] = activation(alpha * U V + beta * C + bias), U the row
// operand, V the column operand, the bias one value per column.
struct GemmParams {
  OperandMap row, col;
  CUtensorMap out_map;  // D, one epilogue chunk per box
  TileScheduler scheduler;
  int32_t rows, cols, depth;
  bool out_batched;
  // D's rows are not 16-byte aligned: no TMA store (out_map is unused); the
  // epilogue stages them rotated and its warps write them (epilogue_store.cuh).
  bool out_rotated;
  // The TMA store clips D's columns exactly: cols * elem is a multiple of 16
  // bytes. Otherwise chunks crossing the last column are stored by threads.
  bool out_store_exact;
  void* out;
  int64_t out_ld, out_stride;  // elements
  // use kNone: off. Otherwise the scheduler's batch is the class, rows and
  // depth the largest class's, out_ld / c_ld the classes' (8 rows of D) and
  // out_stride / c_stride the step from one class's first row to the next.
  RowClasses classes;
  // C, read when beta != 0: D itself for the cuBLAS entry points, another
  // matrix of D's type and shape for cublasLtMatmul, or NULL when beta == 0.
  const void* c_in;
  int64_t c_ld, c_stride;  // elements
  OutputStage stage;
  TileSplitBuffers split;
  ErrorFlag error_flag;
  // How long a bounded wait may poll before it gives up (wait_budget_ns).
  uint64_t wait_budget_ns;
};

// A kernel's parameters are at most 4 KB on every driver the library supports.
static_assert(sizeof(GemmParams) <= 4096, "GemmParams must fit a kernel parameter block");

// A bounded wait's budget: the base (BWGEMM_WAIT_TIMEOUT_MS, env_config.h)
// plus kWaitPerKBlockNs per k block of 64, since one wait may span a whole
// tile's mainloop (a 256 x 256 x 64 block takes well under 1 us on a CTA
// pair), so that a long k is never taken for a hang.
constexpr uint64_t kWaitPerKBlockNs = 10000;

inline uint64_t wait_budget_ns(uint32_t base_ms, int64_t depth) {
  const uint64_t k_blocks = depth > 0 ? uint64_t(depth + 63) / 64 : 0;
  return uint64_t(base_ms) * 1000000 + k_blocks * kWaitPerKBlockNs;
}

}  // namespace bwgemm
