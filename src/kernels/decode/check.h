// SPDX-License-Identifier: MIT
// Which problems the decode kernel takes. Families offer the kernel as one of
// their configurations (launch.h).
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::decode {

// KERNEL_SELECTED when the kernel computes `p`: fp16/bf16 operands, the
// tokens K-contiguous, the weight K-contiguous (cuBLAS TN) or contiguous
// along its m rows with m a multiple of 8 or A a packed copy (NN: a lane's
// 16-byte load of 8 rows may pass m only into zeros), 1 .. kMaxTokens tokens (n),
// K a multiple of 8, the operands' bases, leading dimensions and batch
// strides multiples of 16 bytes (its 16-byte loads ask what TMA asks), and
// every SM available (no SM count target below the device's: the grid is not
// persistent). D and C may have any element alignment. Otherwise
// UNSUPPORTED_LAYOUT.
bwgemmReason_t check(const GemmProblem& p, const DeviceCaps& caps);

// The CTAs of shape_for's shape for `p` (check()ed): one per 16 weight rows,
// or 32 for a weight contiguous along its rows (config.h), and per batch. Two
// fit an SM, or three (shape_of's kThreeAnSmShape); the launch may cut them
// into 8-row halves (kHalfBlocksShape), twice as many CTAs.
int64_t ctas(const GemmProblem& p);
// The shape (config.h) a launch for `p` (check()ed) runs on the device.
int shape_of(const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm::decode
