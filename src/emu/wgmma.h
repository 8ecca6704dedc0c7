// SPDX-License-Identifier: MIT
// The wgmma model (PTX ISA 9.7.15): m64nNk16 with f16/bf16 operands from
// shared-memory descriptors (A also from registers) and f32 accumulators in
// the registers of the warpgroup's 128 threads; asynchronous, performed when
// a wait_group needs its group complete.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "emu/operand.h"

namespace bwgemm::emu {

struct WgmmaOp {
  int n;
  bool bf16, trans_a, trans_b, accumulate;
  uint64_t desc_a, desc_b;
  float* d[128];  // each thread's accumulator registers
  // A from registers: each thread's four (NULL: A from desc_a).
  const uint32_t* a_registers[128];
  Operand a, b;  // as read at issue
};

struct WgmmaWarpgroup {
  std::vector<WgmmaOp> uncommitted;
  std::deque<std::vector<WgmmaOp>> groups;  // committed, oldest first
  // wgmma.fence since the last wait_group (PTX ISA wgmma.fence:
  // required before the first mma_async and between register accesses and
  // an mma_async on the same registers).
  bool fenced = false;
  bool started = false;
  std::vector<float*> released;  // accumulators handed back by a wait_group
};

}  // namespace bwgemm::emu
