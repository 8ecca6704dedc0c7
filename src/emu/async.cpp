// SPDX-License-Identifier: MIT
#include "emu/async.h"

#include "emu/machine.h"
#include "emu/report.h"
#include "emu/tma.h"

namespace bwgemm::emu {
namespace {

const char* kind_name(AsyncKind k) {
  switch (k) {
    case AsyncKind::TmaLoad: return "TMA load";
    case AsyncKind::TmaStore: return "TMA store";
    case AsyncKind::Mma: return "tcgen05.mma";
    case AsyncKind::Commit: return "tcgen05.commit";
  }
  return "?";
}

// Ordered streams: an operation may complete only after the earlier MMAs of
// its stream. Nothing orders a commit's arrive-on after an earlier commit's
// (PTX ISA 9.7.16.12.1 only says it follows the MMAs it tracks), so commits
// hold back nothing and may land in any order.
bool eligible(const std::deque<AsyncOp>& q, size_t i) {
  if (q[i].stream == 0) return true;
  for (size_t j = 0; j < i; ++j)
    if (q[j].stream == q[i].stream && q[j].kind != AsyncKind::Commit) return false;
  return true;
}

// Does `op` touch CTA `rank` of `c` (its shared memory or TMEM)?
bool touches(const AsyncOp& op, const Cluster* c, int rank) {
  if (op.cluster != c) return false;
  switch (op.kind) {
    // A load lands in its destinations and completes on its barrier, which a
    // 2-CTA load may keep in the peer.
    case AsyncKind::TmaLoad: return ((op.cta_mask >> rank) & 1) || op.bar_rank == rank;
    case AsyncKind::TmaStore: return int(op.origin_rank) == rank;
    case AsyncKind::Mma:
      return op.cta_group == 2 ? (int(op.origin_rank) & ~1) == (rank & ~1)
                               : int(op.origin_rank) == rank;
    case AsyncKind::Commit: return (op.cta_mask >> rank) & 1;
  }
  return false;
}

}  // namespace

void async_submit(AsyncOp op) {
  Machine& m = machine();
  op.seq = m.engine.next_seq++;
  m.engine.pending.push_back(op);
  preemption_point();
}

void async_perform(const AsyncOp& op) {
  Machine& m = machine();
  ++m.async_ops;
  switch (op.kind) {
    case AsyncKind::TmaLoad: perform_tma_load(op); break;
    case AsyncKind::TmaStore: perform_tma_store(op); break;
    case AsyncKind::Mma: perform_mma(op); break;
    case AsyncKind::Commit: perform_commit(op); break;
  }
}

bool async_complete_one() {
  Machine& m = machine();
  std::deque<AsyncOp>& q = m.engine.pending;
  if (q.empty()) return false;
  size_t pick = 0;
  if (m.random) {
    // A random eligible operation (the first one always is).
    size_t eligible_count = 0;
    for (size_t i = 0; i < q.size(); ++i) eligible_count += eligible(q, i);
    size_t n = m.rng() % eligible_count;
    for (size_t i = 0; i < q.size(); ++i) {
      if (eligible(q, i) && n-- == 0) {
        pick = i;
        break;
      }
    }
  }
  const AsyncOp op = q[pick];
  q.erase(q.begin() + long(pick));
  async_perform(op);
  return true;
}

void async_complete_matching(bool (*match)(const AsyncOp& op, const void* context),
                             const void* context) {
  std::deque<AsyncOp>& q = machine().engine.pending;
  for (size_t i = 0; i < q.size();) {
    if (match(q[i], context)) {
      const AsyncOp op = q[i];
      q.erase(q.begin() + long(i));
      async_perform(op);
      i = 0;  // performing may have queued or completed others
    } else {
      ++i;
    }
  }
}

void check_no_pending_load(const Cta& cta, const ByteRange& r, const char* reader) {
  for (const AsyncOp& op : machine().engine.pending) {
    if (op.kind != AsyncKind::TmaLoad || !touches(op, cta.cluster, int(cta.rank))) continue;
    ByteRange w;
    w.add(op.smem_offset, op.map.box_bytes());
    if (w.overlaps(r)) {
      violation("PTX ISA 9.7.13.15 mbarrier / 9.7.9.25 cp.async.bulk.tensor",
                format("%s reads shared memory [0x%x, 0x%x) of CTA %u while TMA load #%llu "
                       "(issued by CTA %u thread %u) is still writing [0x%x, 0x%x): its barrier "
                       "was not waited for",
                       reader, r.lo, r.hi, cta.rank, static_cast<unsigned long long>(op.seq),
                       op.origin_rank, op.origin_tid, w.lo, w.hi));
    }
  }
}

void check_no_pending_reader(const Cta& cta, const ByteRange& r, const char* writer) {
  auto race = [&](const char* reader, const ByteRange& read) {
    violation("PTX ISA 9.7.9.25 cp.async.bulk.tensor / wgmma.wait_group / 9.7.16.6",
              format("%s writes shared memory [0x%x, 0x%x) of CTA %u that %s still reads "
                     "[0x%x, 0x%x): the buffer was released before the reader completed",
                     writer, r.lo, r.hi, cta.rank, reader, read.lo, read.hi));
  };
  for (const WgmmaWarpgroup& wg : cta.wgmma) {
    for (const WgmmaOp& op : wg.uncommitted) {
      if (op.a.range.overlaps(r)) race("an uncommitted wgmma (A)", op.a.range);
      if (op.b.range.overlaps(r)) race("an uncommitted wgmma (B)", op.b.range);
    }
    for (const auto& group : wg.groups) {
      for (const WgmmaOp& op : group) {
        if (op.a.range.overlaps(r)) race("a wgmma not yet waited for (A)", op.a.range);
        if (op.b.range.overlaps(r)) race("a wgmma not yet waited for (B)", op.b.range);
      }
    }
  }
  for (const AsyncOp& op : machine().engine.pending) {
    if (op.cluster != cta.cluster) continue;
    if (op.kind == AsyncKind::TmaStore && op.origin_rank == cta.rank && op.reads[0].overlaps(r))
      race("a TMA store not yet waited for", op.reads[0]);
    if (op.kind == AsyncKind::Mma && touches(op, cta.cluster, int(cta.rank))) {
      const ByteRange& read = op.reads[op.cta_group == 2 ? (cta.rank & 1) : 0];
      if (read.overlaps(r)) race("a tcgen05.mma whose commit was not observed", read);
    }
  }
}

std::string async_pending_for(const Cluster* c, int rank, bool peer_only) {
  std::string out;
  for (const AsyncOp& op : machine().engine.pending) {
    if (touches(op, c, rank) && !(peer_only && int(op.origin_rank) == rank)) {
      out += format("  %s #%llu issued by CTA %u thread %u\n", kind_name(op.kind),
                    static_cast<unsigned long long>(op.seq), op.origin_rank, op.origin_tid);
    }
  }
  return out;
}

}  // namespace bwgemm::emu
