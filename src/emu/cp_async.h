// SPDX-License-Identifier: MIT
// PTX ISA 9.7.9.3 cp.async (non-bulk): a thread's 16-byte copies from global
// to shared memory, in groups of its own.
#pragma once

#include <cstdint>
#include <deque>

namespace bwgemm::emu {

struct AsyncOp;

struct CpAsyncThreadState {
  uint64_t open_group = 0;         // copies issued since the last commit (0: none)
  std::deque<uint64_t> committed;  // committed groups, oldest first
};

void perform_cp_async(const AsyncOp& op);

}  // namespace bwgemm::emu
