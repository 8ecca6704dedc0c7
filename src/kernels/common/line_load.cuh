// SPDX-License-Identifier: MIT
// Operand tiles loaded by threads, for operands the TMA cannot address: a
// base, leading dimension or batch stride that is not a multiple of 16 bytes
// (a TMA box must start on a 16-byte boundary; an H100 faults otherwise).
// Shared by the kernel families. What lands in shared memory is what a TMA
// load of the tile would have written (rows of 64 elements, 128B-swizzled,
// zeros outside the operand), so the MMAs read it unchanged.
//
// A tile is cut into lines, the 128-byte rows of the swizzle: 64 elements of
// K (K-major operand: a line per row of M/N) or of M/N (M/N-major: a line
// per k of each 64-wide box). A line may start on any 2-byte boundary. Eight
// lanes of a loader warp take a line: each copies one 16-byte chunk of the
// line's aligned window with cp.async into the line's own slot (the chunk
// past the eighth, which an unaligned line spills into, goes to a side
// buffer); once the stage's copies have landed, each lane makes one output
// chunk of two neighbouring window chunks, shifted by the line's offset into
// its window, and masks the elements outside the operand. A copy never reads
// past the line's last element; before its first it reads at most to the
// 16-byte boundary below, which lies in the same allocation.
#pragma once

#include <cstdint>

#include "kernels/common/cluster_tiles.cuh"
#include "kernels/common/gemm_params.h"
#include "kernels/common/line_geometry.h"
#include "kernels/ptx/cp_async.cuh"
#include "kernels/ptx/device.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/warp.cuh"

namespace bwgemm {

// The lines of the tile at (mn0, k0) of batch `plane` of an operand the
// threads load, `extent` rows of M/N by `depth` K.
template <bool kMNMajor>
BWGEMM_HOST_DEVICE TileLines<kMNMajor> operand_lines(const OperandMap& op, int32_t plane,
                                                     int32_t extent, int32_t depth, int32_t mn0,
                                                     int32_t k0) {
  return tile_lines<kMNMajor>(static_cast<const uint8_t*>(op.base) + plane * op.stride * 2, op.ld,
                              extent, depth, mn0, k0);
}

// The lines of a tile a loader warp takes: groups of kLinesPerPass lines,
// group g by warp g % loaders, so that every lane of a warp runs the same
// number of passes (its syncs must be uniform). per_line(line, quarter):
// each of a line's kLanesPerLine lanes has its quarter of it.
template <int kLines, class PerLine>
BWGEMM_DEVICE void for_warp_lines(uint32_t loader, uint32_t loaders, const PerLine& per_line) {
  static_assert(kLines % kLinesPerPass == 0);
  const uint32_t lane = ptx::lane_index();
  // Rolled: the loader runs in the producer warpgroup's few registers.
#pragma unroll 1
  for (uint32_t g = loader; g < uint32_t(kLines / kLinesPerPass); g += loaders)
    per_line(int32_t(g * kLinesPerPass + lane / kLanesPerLine), lane % kLanesPerLine);
}

// Issues this warp's copies of the kLines lines of `lines` into `tile` (and
// `side`: 16 bytes per line). A line's quarter q copies window chunks q and
// q + 4 (and the last quarter chunk 8), so that each copy instruction reads
// whole 64-byte halves of the lines.
template <int kLines, bool kMNMajor>
BWGEMM_DEVICE void issue_line_copies(const TileLines<kMNMajor>& lines, uint8_t* tile, uint8_t* side,
                                     uint32_t loader, uint32_t loaders) {
  for_warp_lines<kLines>(loader, loaders, [&](int32_t line, uint32_t quarter) {
    const int32_t count = lines.count(line);
    if (count == 0) return;
    const uint8_t* start = lines.start(line);
    const int32_t head = int32_t(reinterpret_cast<uintptr_t>(start) % 16);
    const uint8_t* window = start - head;
    // Window chunk j: its bytes up to the line's last one.
    const int32_t end = head + 2 * count;
    const auto copy = [&](uint32_t j, uint8_t* dst) {
      const int32_t left = end - 16 * int32_t(j);
      if (left > 0) ptx::cp_async_16(dst, window + 16 * j, left < 16 ? uint32_t(left) : 16u);
    };
    copy(quarter, tile + line_slot(line, quarter));
    copy(quarter + 4, tile + line_slot(line, quarter + 4));
    if (quarter == kLanesPerLine - 1) copy(8, side + line * 16);
  });
}

// Turns this warp's lines of the tile, copied by issue_line_copies with the
// same arguments and landed (the copies' group waited for, the warp
// synchronised), into the TMA layout: quarter q makes output chunks 2q and
// 2q + 1 of window chunks 2q to 2q + 2.
template <int kLines, bool kMNMajor>
BWGEMM_DEVICE void shift_lines(const TileLines<kMNMajor>& lines, uint8_t* tile, const uint8_t* side,
                               uint32_t loader, uint32_t loaders) {
  for_warp_lines<kLines>(loader, loaders, [&](int32_t line, uint32_t quarter) {
    const int32_t count = lines.count(line);
    const uint32_t shift =
        count == 0 ? 0 : uint32_t(reinterpret_cast<uintptr_t>(lines.start(line)) % 16);
    const uint32_t first = 2 * quarter;
    uint4* out0 = reinterpret_cast<uint4*>(tile + line_slot(line, first));
    uint4* out1 = reinterpret_cast<uint4*>(tile + line_slot(line, first + 1));
    const uint4* in2 = reinterpret_cast<const uint4*>(
        quarter == kLanesPerLine - 1 ? side + line * 16 : tile + line_slot(line, first + 2));
    // An aligned line that lies wholly inside the operand landed as it is.
    const bool rewrite = shift != 0 || count < kLineElems;
    uint4 a = make_uint4(0, 0, 0, 0), b = a;
    if (rewrite && count > 0) {
      const uint4 w0 = *out0, w1 = *out1, w2 = *in2;
      a = window_bytes(w0, w1, shift);
      b = window_bytes(w1, w2, shift);
      if (count < kLineElems) {
        a = keep_elements(a, count - int32_t(first) * 8);
        b = keep_elements(b, count - int32_t(first + 1) * 8);
      }
    }
    // Every lane has read its chunks before any overwrites one.
    ptx::sync_warp();
    if (rewrite) {
      *out0 = a;
      *out1 = b;
    }
  });
}

// The loader warps' loop over the producers' steps (ClusterSteps), kLag
// steps between a step's copies and its shift: the copies of step i are
// issued once its stage is free (issue(cursor) waits for that and issues);
// before that, step i - kLag, whose copies have had kLag steps to land, is
// shifted and handed to the MMAs (finish(stage): the step's ring stage; what
// else it needs, issue left in shared memory). With kLag <= stages - 1 the
// ring never waits for a shift it is itself holding up, and a shift overlaps
// the MMAs of the step before it.
template <int kLag, int kStages, class Steps, class Issue, class Finish>
BWGEMM_DEVICE void run_line_loader(const Steps& steps, const Issue& issue, const Finish& finish) {
  static_assert(kLag >= 1 && kLag < kStages);
  if (steps.count() == 0) return;
  auto issuing = steps.template first<kStages>();
  PipelineState<kStages> finishing;
  for (int64_t i = 0; i < steps.count(); ++i) {
    if (i >= kLag) {
      ptx::cp_async_wait<kLag - 1>();
      ptx::sync_warp();
      finish(finishing.stage);
      finishing.advance();
    }
    issue(issuing);
    ptx::cp_async_commit();
    // Past the last step the cursor is not used again (nor derived from).
    if (i + 1 < steps.count()) steps.advance(&issuing);
  }
  ptx::cp_async_wait<0>();
  ptx::sync_warp();
  for (int64_t i = steps.count() > kLag ? steps.count() - kLag : 0; i < steps.count(); ++i) {
    finish(finishing.stage);
    finishing.advance();
  }
}

}  // namespace bwgemm
