// SPDX-License-Identifier: MIT
// Which problems the decode kernel takes. Families offer the kernel as one of
// their configurations (launch.h).
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::decode {

// KERNEL_SELECTED when the kernel computes `p`: fp16/bf16 operands, both
// K-contiguous (cuBLAS TN), 1 .. kMaxTokens tokens (n), K a multiple of 8,
// the operands' bases, leading dimensions and batch strides multiples of 16
// bytes, and every SM available (no SM count target below the device's: the
// grid is not persistent). D and C may have any element alignment.
// Otherwise UNSUPPORTED_LAYOUT.
bwgemmReason_t check(const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm::decode
