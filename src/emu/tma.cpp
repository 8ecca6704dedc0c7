// SPDX-License-Identifier: MIT
// PTX ISA 9.7.9.25 cp.async.bulk.tensor (tile mode) and
// cp.async.bulk.commit_group / wait_group:
//  - a load copies one box into shared memory (128-byte aligned), zero-filling
//    elements outside the tensor (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), laid out
//    row after row and swizzled by the map's mode; it then performs a
//    complete-tx of the whole box's bytes on the mbarrier;
//  - .multicast::cluster writes the same box at the same offset of every CTA
//    in the mask, each completing on its own barrier at the same offset;
//  - .cta_group::2 lets the barrier be the peer CTA's (the 2-CTA MMA's
//    leader);
//  - a store writes the box to global memory, skipping elements outside the
//    tensor: exactly in the outer dimensions, but in the contiguous one only
//    at 16-byte granularity, as measured on an H200: the
//    elements past the last column up to the next 16-byte boundary of the
//    row are written too;
//  - stores join the thread's current bulk async-group; wait_group N waits
//    until at most N committed groups are pending.
// Operations are asynchronous: they run when the scheduler completes them
// (async.h), so a kernel that reads a stage before its barrier completes, or
// reuses a store's source before wait_group.read, sees stale data.
#include <algorithm>
#include <cstring>

#include "emu/api.h"
#include "emu/machine.h"
#include "emu/report.h"

namespace bwgemm::emu {
namespace {

const char* const kRef = "PTX ISA 9.7.9.25 cp.async.bulk.tensor";

TensorMapInfo map_of(const CUtensorMap* map, const char* op) {
  TensorMapInfo info;
  if (map == nullptr || !decode_tensor_map(map, &info)) {
    violation(kRef, format("%s: %p is not a tensor map made by cuTensorMapEncodeTiled", op,
                           static_cast<const void*>(map)));
  }
  return info;
}

uint32_t box_offset(const Cta& cta, const void* p, uint32_t bytes, const char* op) {
  const int64_t off = window_offset(cta, p);
  if (off < int64_t(kReservedSmem) || off + bytes > cta.window_bytes) {
    violation(kRef, format("%s: the %u-byte box at %p is not inside the CTA's dynamic shared "
                           "memory",
                           op, bytes, p));
  }
  if (off % 128 != 0) {
    violation(kRef, format("%s: shared address 0x%llx is not 128-byte aligned", op,
                           static_cast<unsigned long long>(off)));
  }
  return uint32_t(off);
}

// Checks shared by loads and stores: a 3-D map the emulator models, and a box
// that starts on a 16-byte boundary of the innermost dimension (an H100 raises
// an illegal instruction otherwise, whatever the map's alignment; measured
// 2026-11-23 with a 2-byte type at inner coordinate 3).
void check_map(const TensorMapInfo& info, int32_t c0, const char* op) {
  if (int64_t(c0) * info.elem_bytes % 16 != 0) {
    violation(kRef, format("%s: the box starts at inner coordinate %d, not on a 16-byte boundary",
                           op, c0));
  }
  if (info.rank != 3) {
    violation(kRef, format("%s: .3d with a tensor map of rank %u", op, info.rank));
  }
  for (uint32_t i = 0; i < info.rank; ++i) {
    if (info.element_strides[i] != 1) {
      unmodelled(kRef, format("%s: element strides other than 1", op));
    }
  }
  const uint32_t span = swizzle_span(info.swizzle);
  if (span != 0 && info.box[0] * info.elem_bytes != span) {
    unmodelled(kRef, format("%s: a swizzled box whose rows (%u bytes) are narrower than the "
                            "%u-byte swizzle span",
                            op, info.box[0] * info.elem_bytes, span));
  }
}

void issue_load(void* dst, const CUtensorMap* map, uint64_t* bar, uint16_t mask, int32_t bar_rank,
                const int32_t (&c)[3], const char* op) {
  Thread& t = self();
  Cta& cta = *t.cta;
  const TensorMapInfo info = map_of(map, op);
  check_map(info, c[0], op);
  AsyncOp a;
  a.kind = AsyncKind::TmaLoad;
  a.cluster = cta.cluster;
  a.origin_rank = cta.rank;
  a.origin_tid = t.tid;
  a.map = info;
  std::copy(c, c + 3, a.coords);
  a.smem_offset = box_offset(cta, dst, info.box_bytes(), op);
  a.cta_mask = mask;
  const int64_t bar_off = window_offset(cta, bar);
  if (bar_off < 0) violation(kRef, format("%s: the mbarrier %p is not in shared memory", op, bar));
  a.bar_offset = uint32_t(bar_off);
  a.bar_rank = bar_rank;
  ByteRange written;
  written.add(a.smem_offset, info.box_bytes());
  for (uint32_t r = 0; r < cta.cluster->ctas.size(); ++r)
    if ((mask >> r) & 1) check_no_pending_reader(peer_cta(cta, r), written, op);
  // The barrier must exist (and be visible cluster-wide) when the load is
  // issued, not only when it completes.
  const uint32_t first = bar_rank >= 0 ? uint32_t(bar_rank) : uint32_t(__builtin_ctz(mask));
  mbarrier_at(peer_cta(cta, first), a.bar_offset, cta, op);
  async_submit(a);
}

bool same_group(const AsyncOp& op, const void* group) {
  return op.kind == AsyncKind::TmaStore && op.group == *static_cast<const uint64_t*>(group);
}

bool group_pending(uint64_t group) {
  for (const AsyncOp& op : machine().engine.pending)
    if (same_group(op, &group)) return true;
  return false;
}

}  // namespace

void perform_tma_load(const AsyncOp& op) {
  const TensorMapInfo& m = op.map;
  const uint32_t elem = m.elem_bytes, span = swizzle_span(m.swizzle);
  const uint32_t row_bytes = m.box[0] * elem;
  Cta& origin = *op.cluster->ctas[op.origin_rank];
  for (uint32_t rank = 0; rank < op.cluster->ctas.size(); ++rank) {
    if (((op.cta_mask >> rank) & 1) == 0) continue;
    Cta& dst = *op.cluster->ctas[rank];
    if (dst.exited) {
      violation(kRef, format("TMA load into CTA %u, which has exited", rank));
    }
    if (const MbarrierState* b = mbarrier_overlapping(dst, op.smem_offset, m.box_bytes())) {
      violation(kRef, format("TMA load into [0x%x, 0x%x) of CTA %u overwrites the mbarrier at 0x%x",
                             op.smem_offset, op.smem_offset + m.box_bytes(), rank, b->offset));
    }
    uint32_t row = 0;
    for (uint32_t i2 = 0; i2 < m.box[2]; ++i2) {
      for (uint32_t i1 = 0; i1 < m.box[1]; ++i1, ++row) {
        const int64_t x1 = int64_t(op.coords[1]) + i1, x2 = int64_t(op.coords[2]) + i2;
        const bool row_in =
            x1 >= 0 && x1 < int64_t(m.dims[1]) && x2 >= 0 && x2 < int64_t(m.dims[2]);
        const uint8_t* src = m.base + x1 * int64_t(m.strides[1]) + x2 * int64_t(m.strides[2]);
        for (uint32_t byte = 0; byte < row_bytes; byte += elem) {
          const int64_t x0 = int64_t(op.coords[0]) + byte / elem;
          const uint32_t addr = swizzle_address(op.smem_offset + row * row_bytes + byte, span);
          if (row_in && x0 >= 0 && x0 < int64_t(m.dims[0])) {
            std::memcpy(dst.window + addr, src + x0 * elem, elem);
          } else {
            std::memset(dst.window + addr, 0, elem);
          }
        }
      }
    }
    Cta& bar_cta = op.bar_rank >= 0 ? *op.cluster->ctas[op.bar_rank] : dst;
    MbarrierState& b = mbarrier_at(bar_cta, op.bar_offset, origin, "TMA complete-tx");
    mbarrier_complete_tx(b, m.box_bytes());
  }
}

// A TMA store reads its source when it completes: it must still hold what it
// held at issue.
void check_source_unchanged(const AsyncOp& op) {
  const Cta& src = *op.cluster->ctas[op.origin_rank];
  if (std::memcmp(op.source.data(), src.window + op.smem_offset, op.source.size()) != 0) {
    violation("PTX ISA cp.async.bulk.wait_group",
              format("the shared-memory source [0x%x, 0x%zx) of TMA store #%llu (CTA %u thread %u) "
                     "changed before the store read it: overwritten without "
                     "cp.async.bulk.wait_group.read",
                     op.smem_offset, op.smem_offset + op.source.size(),
                     static_cast<unsigned long long>(op.seq), op.origin_rank, op.origin_tid));
  }
}

void perform_tma_store(const AsyncOp& op) {
  const TensorMapInfo& m = op.map;
  const uint32_t elem = m.elem_bytes, span = swizzle_span(m.swizzle);
  const uint32_t row_bytes = m.box[0] * elem;
  const Cta& src = *op.cluster->ctas[op.origin_rank];
  check_source_unchanged(op);
  // The contiguous dimension is clipped at 16-byte granularity.
  const int64_t inner_limit = int64_t((m.dims[0] * elem + 15) / 16 * 16);
  uint8_t* base = const_cast<uint8_t*>(m.base);
  uint32_t row = 0;
  for (uint32_t i2 = 0; i2 < m.box[2]; ++i2) {
    for (uint32_t i1 = 0; i1 < m.box[1]; ++i1, ++row) {
      const int64_t x1 = int64_t(op.coords[1]) + i1, x2 = int64_t(op.coords[2]) + i2;
      if (x1 < 0 || x1 >= int64_t(m.dims[1]) || x2 < 0 || x2 >= int64_t(m.dims[2])) continue;
      uint8_t* dst = base + x1 * int64_t(m.strides[1]) + x2 * int64_t(m.strides[2]);
      for (uint32_t byte = 0; byte < row_bytes; byte += elem) {
        const int64_t x0 = int64_t(op.coords[0]) + byte / elem;
        if (x0 < 0 || x0 * elem >= inner_limit) continue;
        const uint32_t addr = swizzle_address(op.smem_offset + row * row_bytes + byte, span);
        std::memcpy(dst + x0 * elem, src.window + addr, elem);
      }
    }
  }
}

// ---- the primitives ---------------------------------------------------------

void prefetch_tensor_map(const CUtensorMap* map) {
  map_of(map, "prefetch.tensormap");
  preemption_point();
}

void tma_load_3d(void* dst, const CUtensorMap* map, uint64_t* bar, int32_t c0, int32_t c1,
                 int32_t c2) {
  const Cta& cta = *self().cta;
  issue_load(dst, map, bar, uint16_t(1u << cta.rank), -1, {c0, c1, c2}, "cp.async.bulk.tensor.3d");
}

void tma_load_3d_multicast(void* dst, const CUtensorMap* map, uint64_t* bar, uint16_t cta_mask,
                           int32_t c0, int32_t c1, int32_t c2) {
  const Cta& cta = *self().cta;
  const char* op = "cp.async.bulk.tensor.3d.multicast::cluster";
  if (cta_mask == 0 || (cta_mask >> cta.cluster->ctas.size()) != 0) {
    violation(kRef, format("%s: CTA mask 0x%x for a cluster of %zu CTAs", op, cta_mask,
                           cta.cluster->ctas.size()));
  }
  issue_load(dst, map, bar, cta_mask, -1, {c0, c1, c2}, op);
}

void tma_load_3d_2cta(void* dst, const CUtensorMap* map, uint64_t* bar, uint32_t bar_cta,
                      int32_t c0, int32_t c1, int32_t c2) {
  const Cta& cta = *self().cta;
  const char* op = "cp.async.bulk.tensor.3d.cta_group::2";
  // The barrier is in the destination's CTA or its peer (ranks differing in
  // the last bit).
  if ((bar_cta & ~1u) != (cta.rank & ~1u) || bar_cta >= cta.cluster->ctas.size()) {
    violation(kRef, format("%s: the mbarrier's CTA %u is neither CTA %u nor its peer", op, bar_cta,
                           cta.rank));
  }
  issue_load(dst, map, bar, uint16_t(1u << cta.rank), int32_t(bar_cta), {c0, c1, c2}, op);
}

void tma_store_3d(const CUtensorMap* map, const void* src, int32_t c0, int32_t c1, int32_t c2) {
  Thread& t = self();
  const Cta& cta = *t.cta;
  const char* op = "cp.async.bulk.tensor.3d.global.shared::cta";
  const TensorMapInfo info = map_of(map, op);
  check_map(info, c0, op);
  AsyncOp a;
  a.kind = AsyncKind::TmaStore;
  a.cluster = cta.cluster;
  a.origin_rank = cta.rank;
  a.origin_tid = t.tid;
  a.map = info;
  a.coords[0] = c0;
  a.coords[1] = c1;
  a.coords[2] = c2;
  a.smem_offset = box_offset(cta, src, info.box_bytes(), op);
  a.reads[0].add(a.smem_offset, info.box_bytes());
  check_no_pending_load(cta, a.reads[0], op);
  a.source.assign(cta.window + a.smem_offset, cta.window + a.smem_offset + info.box_bytes());
  if (t.tma.open_group == 0) t.tma.open_group = machine().engine.next_seq;
  a.group = t.tma.open_group;
  async_submit(a);
}

// cp.async.bulk.prefetch.L2: the address 16-byte aligned, the size a
// non-zero multiple of 16; nothing moves.
void prefetch_l2(const void* src, uint32_t bytes) {
  const char* op = "cp.async.bulk.prefetch.L2.global";
  const char* ref = "PTX ISA cp.async.bulk.prefetch";
  if (bytes == 0 || bytes % 16 != 0)
    violation(ref, format("%s: size %u is not a non-zero multiple of 16", op, bytes));
  if (reinterpret_cast<uintptr_t>(src) % 16 != 0)
    violation(ref, format("%s: global %p is not 16-byte aligned", op, src));
  machine().l2_prefetches.push_back({src, bytes});
  preemption_point();
}

void tma_store_commit() {
  Thread& t = self();
  // An empty group is legal (and complete at once).
  t.tma.committed.push_back(t.tma.open_group != 0 ? t.tma.open_group : 0);
  t.tma.open_group = 0;
  preemption_point();
}

// .read only guarantees the source was read; the emulator completes the
// whole store either way, which is one of the behaviours the hardware may
// show.
void tma_store_wait(int pending, bool) {
  Thread& t = self();
  std::deque<uint64_t>& groups = t.tma.committed;
  groups.erase(std::remove_if(groups.begin(), groups.end(),
                              [](uint64_t g) { return g == 0 || !group_pending(g); }),
               groups.end());
  while (groups.size() > size_t(pending < 0 ? 0 : pending)) {
    const uint64_t g = groups.front();
    groups.pop_front();
    async_complete_matching(same_group, &g);
  }
  preemption_point();
}

}  // namespace bwgemm::emu
