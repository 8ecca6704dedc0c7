// SPDX-License-Identifier: MIT
// The TMA model (PTX ISA 9.7.9.25 cp.async.bulk.tensor, and
// cp.async.bulk.commit_group / wait_group): tiled loads with zero fill,
// multicast and the cta_group::2 form, clipped stores, bulk async-groups.
#pragma once

#include <cstdint>
#include <deque>

namespace bwgemm::emu {

struct AsyncOp;

// A thread's bulk async-groups of TMA stores.
struct TmaThreadState {
  uint64_t open_group = 0;         // stores issued since the last commit (0: none)
  std::deque<uint64_t> committed;  // committed groups, oldest first
};

void perform_tma_load(const AsyncOp& op);
void perform_tma_store(const AsyncOp& op);

}  // namespace bwgemm::emu
