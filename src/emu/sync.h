// SPDX-License-Identifier: MIT
// Warp- and warpgroup-collective (.sync.aligned) rendezvous shared by the
// units whose instructions are collective (wgmma, tcgen05.alloc/ld, elect,
// setmaxnreg, shuffles).
#pragma once

#include <cstdint>
#include <functional>

#include "emu/machine.h"

namespace bwgemm::emu {

// The caller's warp (32 threads) or warpgroup (128) rendezvous.
enum class Group : uint8_t { Warp, Warpgroup };

// Every member thread calls this with the same `op` and `key` (differing
// operands are reported: .aligned instructions need uniform ones) and its own
// value / pointer. The last to arrive runs perform(c, results), which may
// block; each caller gets results[its index in the group].
uint64_t collective(Group group, const char* op, const uint64_t (&key)[3], uint64_t value,
                    void* pointer, const std::function<void(Collective&, uint64_t*)>& perform);

// Index of the calling thread in its warp or warpgroup.
uint32_t index_in(Group group, const Thread& t);

}  // namespace bwgemm::emu
