// SPDX-License-Identifier: MIT
// PTX ISA 9.7.9.3 cp.async.cg.shared.global (16 bytes, with src-size) and
// cp.async.commit_group / wait_group:
//  - a copy reads the first src_bytes of its 16-byte source and writes them,
//    zero-filled to 16 bytes, into shared memory; both addresses 16-byte
//    aligned, src_bytes at most 16;
//  - copies join the thread's open group; wait_group N waits until every
//    committed group but the N most recent is complete, and only then are the bytes
//    visible to it (the copy happens when the scheduler completes it, so a
//    kernel that reads too early sees stale data, and one whose reader, such
//    as a wgmma, runs on bytes still being copied is reported).
#include <cstring>

#include "emu/api.h"
#include "emu/machine.h"
#include "emu/report.h"

namespace bwgemm::emu {
namespace {

const char* const kRef = "PTX ISA 9.7.9.3 cp.async";

bool same_group(const AsyncOp& op, const void* group) {
  return op.kind == AsyncKind::CpAsync && op.group == *static_cast<const uint64_t*>(group);
}

}  // namespace

void perform_cp_async(const AsyncOp& op) {
  Cta& cta = *op.cluster->ctas[op.origin_rank];
  if (cta.exited) violation(kRef, format("cp.async into CTA %u, which has exited", op.origin_rank));
  if (const MbarrierState* b = mbarrier_overlapping(cta, op.smem_offset, 16)) {
    violation(kRef, format("cp.async into [0x%x, 0x%x) of CTA %u overwrites the mbarrier at 0x%x",
                           op.smem_offset, op.smem_offset + 16, op.origin_rank, b->offset));
  }
  uint8_t* dst = cta.window + op.smem_offset;
  std::memcpy(dst, op.global_src, op.src_bytes);
  std::memset(dst + op.src_bytes, 0, 16 - op.src_bytes);
}

void cp_async_16(void* dst, const void* src, uint32_t src_bytes) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const char* op = "cp.async.cg.shared.global";
  const int64_t off = window_offset(cta, dst);
  if (src_bytes > 16)
    violation(kRef, format("%s: src-size %u exceeds the copy size 16", op, src_bytes));
  if (off % 16 != 0 || reinterpret_cast<uintptr_t>(src) % 16 != 0) {
    violation(kRef, format("%s: shared offset 0x%llx or global %p is not 16-byte aligned", op,
                           static_cast<unsigned long long>(off), src));
  }
  if (off < int64_t(kReservedSmem) || off + 16 > cta.window_bytes) {
    violation(kRef, format("%s: %p is not inside the CTA's dynamic shared memory", op, dst));
  }
  AsyncOp a;
  a.kind = AsyncKind::CpAsync;
  a.cluster = cta.cluster;
  a.origin_rank = cta.rank;
  a.origin_tid = t.tid;
  a.smem_offset = uint32_t(off);
  a.global_src = static_cast<const uint8_t*>(src);
  a.src_bytes = src_bytes;
  ByteRange written;
  written.add(a.smem_offset, 16);
  check_no_pending_reader(cta, written, op);
  if (t.cp_async.open_group == 0) t.cp_async.open_group = machine().engine.next_seq;
  a.group = t.cp_async.open_group;
  async_submit(a);
}

void cp_async_commit() {
  Thread& t = self();
  // An empty group is legal (and complete at once).
  t.cp_async.committed.push_back(t.cp_async.open_group);
  t.cp_async.open_group = 0;
  preemption_point();
}

void cp_async_wait(int pending) {
  Thread& t = self();
  // Every group but the `pending` most recent ones completes, whatever the
  // state of those.
  std::deque<uint64_t>& groups = t.cp_async.committed;
  while (groups.size() > size_t(pending < 0 ? 0 : pending)) {
    const uint64_t g = groups.front();
    groups.pop_front();
    if (g != 0) async_complete_matching(same_group, &g);
  }
  preemption_point();
}

}  // namespace bwgemm::emu
