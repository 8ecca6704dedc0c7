// SPDX-License-Identifier: MIT
// The asynchronous units (TMA, the tcgen05 tensor core): operations issued by
// a thread and completed later, at a point the scheduler picks.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "emu/operand.h"
#include "emu/tensor_map.h"

namespace bwgemm::emu {

struct Cluster;
struct Cta;

enum class AsyncKind : uint8_t { TmaLoad, TmaStore, Mma, Commit };

struct AsyncOp {
  uint64_t seq = 0;
  AsyncKind kind = AsyncKind::TmaLoad;
  // Operations of one non-zero stream complete in issue order (tcgen05.mma
  // and commit of one issuing thread, PTX ISA 9.7.16.6.2); stream 0 ones in
  // any order.
  uint64_t stream = 0;
  Cluster* cluster = nullptr;
  uint32_t origin_rank = 0, origin_tid = 0;

  // TMA: the map, box coordinates and shared-memory offset (destination of a
  // load, source of a store).
  TensorMapInfo map{};
  int32_t coords[3] = {};
  uint32_t smem_offset = 0;
  uint16_t cta_mask = 0;  // load destinations / commit targets
  uint32_t bar_offset = 0;
  int32_t bar_rank = -1;        // the barrier's CTA; -1: each destination's own
  uint64_t group = 0;           // store: its bulk async-group
  std::vector<uint8_t> source;  // store: the box as it was in shared memory at issue

  // tcgen05.mma.
  uint32_t d_tmem = 0;
  uint64_t a_desc = 0, b_desc = 0;
  uint32_t idesc = 0;
  bool accumulate = false;
  int cta_group = 1;
  // The operands as they were at issue: A and B of each CTA of the group.
  std::vector<Operand> operands;

  // Shared memory the operation reads, per CTA of its group (a store: its
  // source in [0]).
  ByteRange reads[2];
};

struct AsyncEngine {
  std::deque<AsyncOp> pending;
  uint64_t next_seq = 1;
};

// Queues an operation of the current thread.
void async_submit(AsyncOp op);
// Completes one eligible operation (the oldest; a random one in random
// mode). False when none is pending.
bool async_complete_one();
// Completes the pending operations `match(op, context)` selects, oldest first.
void async_complete_matching(bool (*match)(const AsyncOp& op, const void* context),
                             const void* context);
// Performs one operation (its unit's model) and counts it.
void async_perform(const AsyncOp& op);
// Pending operations touching cluster `c`'s CTA `rank` (its shared memory,
// barriers or TMEM), all or only those another CTA issued (for exit and
// dealloc checks and reports).
std::string async_pending_for(const Cluster* c, int rank, bool peer_only = false);

// Shared-memory races between the asynchronous units, which PTX leaves
// undefined and the emulator reports: an asynchronous reader (wgmma,
// tcgen05.mma, TMA store) issued on bytes a pending TMA load still writes (a
// missing mbarrier wait), and a TMA load issued over bytes a reader in
// flight still reads (a stage released too early).
void check_no_pending_load(const Cta& cta, const ByteRange& r, const char* reader);
void check_no_pending_reader(const Cta& cta, const ByteRange& r, const char* writer);

}  // namespace bwgemm::emu
