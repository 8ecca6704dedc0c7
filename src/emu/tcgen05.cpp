// SPDX-License-Identifier: MIT
// PTX ISA 9.7.16 (tcgen05, "TensorCore 5th Generation Family
// Instructions"), the rules this model enforces:
//  - 9.7.16.1 Tensor Memory: 128 lanes x 512 columns of 32 bits per CTA; an
//    address holds the lane in bits 31-16 and the column in bits 15-0;
//  - 9.7.16.7.1 alloc / dealloc / relinquish_alloc_permit: warp-collective;
//    with .cta_group::2 one warp in each CTA of the pair performs it and the
//    first may block until the peer's does; nCols a power of two in 32..512,
//    not larger than the CTA's previous allocation; alloc blocks until the
//    columns are free and writes the address to shared memory; no alloc
//    after relinquish; everything deallocated before the kernel exits;
//  - 9.7.16.4.1 shared-memory descriptor (the wgmma fields plus bits 46-48 =
//    0b001, a 3-bit swizzle in 61-63: 0 none, 1 128B with 32B atoms, 2 128B,
//    4 64B, 6 32B), 9.7.16.4.2 instruction descriptor for .kind::f16;
//  - 9.7.16.10.9.1 tcgen05.mma: issued by one thread; with .cta_group::2 by
//    the even CTA of the pair, M = 256 split as 128 rows per CTA (Layout A:
//    row m of a CTA's half in TMEM lane m, column n in column d + n), A's rows
//    and B's rows [v N/2, (v + 1) N/2) read from CTA v's shared memory at the
//    descriptors' offsets; mma of one thread complete in issue order;
//  - 9.7.16.12.1 tcgen05.commit: one arrive on the barrier at the same offset
//    in each CTA of the mask once the thread's prior mma completed;
//  - 9.7.16.8 tcgen05.ld .32x32b.xN: thread t of the warp reads lane
//    base + t, registers j = columns col + j; warp w % 4 of a warpgroup may
//    only access lanes 32 (w % 4) .. + 31; results valid after wait::ld;
//  - 9.7.16.6.4: after an mbarrier wait that orders an mma or ld after other
//    threads' work, tcgen05.fence::after_thread_sync before it.
// MMAs run on the asynchronous engine (async.h) and loads at wait::ld, so a
// missing commit/wait reads stale or poisoned (NaN) Tensor Memory.
#include <cstring>
#include <vector>

#include "emu/api.h"
#include "emu/async.h"
#include "emu/operand.h"
#include "emu/report.h"
#include "emu/sync.h"

namespace bwgemm::emu {
namespace {

const char* const kAllocRef = "PTX ISA 9.7.16.7.1 tcgen05.alloc/dealloc";
const char* const kMmaRef = "PTX ISA 9.7.16.10.9.1 tcgen05.mma";
const char* const kDescRef = "PTX ISA 9.7.16.4.1 shared memory descriptor";
const char* const kIdescRef = "PTX ISA 9.7.16.4.2 instruction descriptor";
const char* const kLdRef = "PTX ISA 9.7.16.8 tcgen05.ld";
constexpr uint32_t kPoison = 0xffffffffu;  // NaN

struct Idesc {
  int m, n;
  bool bf16, negate_a, negate_b, trans_a, trans_b;
};

Idesc decode_idesc(uint32_t idesc, int cta_group) {
  auto bits = [idesc](int lo, int n) { return (idesc >> lo) & ((1u << n) - 1); };
  if (bits(0, 3) != 0) unmodelled(kIdescRef, format("sparse MMA (idesc 0x%08x)", idesc));
  if (bits(3, 1) || bits(6, 1) || bits(23, 1) || bits(29, 1)) {
    violation(kIdescRef, format("idesc 0x%08x sets reserved (or integer-only) bits", idesc));
  }
  if (bits(4, 2) == 0) unmodelled(kIdescRef, format("an f16 accumulator (idesc 0x%08x)", idesc));
  if (bits(4, 2) != 1) violation(kIdescRef, format("idesc 0x%08x: invalid D format", idesc));
  if (bits(7, 3) > 1 || bits(10, 3) != bits(7, 3)) {
    violation(kIdescRef, format("idesc 0x%08x: A and B formats must both be F16 (0) or both "
                                "BF16 (1) for .kind::f16",
                                idesc));
  }
  if (bits(30, 2) != 0) {
    violation(kIdescRef, format("idesc 0x%08x: a max shift, which only .ws takes", idesc));
  }
  Idesc d;
  d.bf16 = bits(7, 3) == 1;
  d.negate_a = bits(13, 1);
  d.negate_b = bits(14, 1);
  d.trans_a = bits(15, 1);
  d.trans_b = bits(16, 1);
  d.n = int(bits(17, 6)) << 3;
  d.m = int(bits(24, 5)) << 4;
  const bool modelled = cta_group == 2 ? d.m == 256 : d.m == 128;
  const bool valid = cta_group == 2 ? d.m == 128 || d.m == 256 : d.m == 64 || d.m == 128;
  if (!valid) violation(kIdescRef, format("M = %d with .cta_group::%d", d.m, cta_group));
  if (!modelled) {
    unmodelled(kIdescRef, format("M = %d with .cta_group::%d (another TMEM data-path layout)", d.m,
                                 cta_group));
  }
  if (d.n % 16 != 0 || d.n < 16 || d.n > 256) {
    violation(kIdescRef, format("N = %d: M = %d needs N %% 16 == 0 in 16..256", d.n, d.m));
  }
  return d;
}

SmemMatrix decode_desc(uint64_t desc, bool mn_major, const char* which) {
  desc ^= uint64_t(machine().options.faults.desc_swizzle_xor & 7) << 61;
  const auto ull = static_cast<unsigned long long>(desc);
  if (((desc >> 46) & 7) != 1) {
    violation(kDescRef, format("%s descriptor 0x%016llx: bits 46-48 must be 0b001", which, ull));
  }
  if ((desc & ((uint64_t{3} << 14) | (uint64_t{3} << 30))) || ((desc >> 53) & 0xff)) {
    violation(kDescRef, format("%s descriptor 0x%016llx sets reserved bits", which, ull));
  }
  if ((desc >> 49) & 7) {
    unmodelled(kDescRef, format("%s descriptor 0x%016llx: a non-zero base offset", which, ull));
  }
  if ((desc >> 52) & 1) {
    unmodelled(kDescRef, format("%s descriptor 0x%016llx: absolute LBO mode", which, ull));
  }
  SmemMatrix m;
  switch (desc >> 61) {
    case 0: m.span = 0; break;
    case 2: m.span = 128; break;
    case 4: m.span = 64; break;
    case 6: m.span = 32; break;
    case 1: unmodelled(kDescRef, format("%s descriptor: 128B swizzle with 32B atoms", which));
    default:
      violation(kDescRef, format("%s descriptor 0x%016llx: invalid swizzle mode %llu", which, ull,
                                 static_cast<unsigned long long>(desc >> 61)));
  }
  m.start = uint32_t(desc & 0x3fff) << 4;
  m.lbo = uint32_t((desc >> 16) & 0x3fff) << 4;
  m.sbo = uint32_t((desc >> 32) & 0x3fff) << 4;
  m.mn_major = mn_major;
  return m;
}

uint32_t* cells(Cta& cta) {
  std::vector<uint32_t>& c = cta.tmem.cells;
  if (c.empty()) c.assign(size_t(kTmemLanes) * kTmemColumns, kPoison);
  return c.data();
}

bool power_of_two_columns(uint32_t n) { return n >= 32 && n <= 512 && (n & (n - 1)) == 0; }

uint32_t column_mask(uint32_t column, uint32_t columns) {
  const uint32_t units = (columns + 31) / 32;
  return (units >= 32 ? ~0u : ((1u << units) - 1)) << (column / 32);
}

// Are columns [column, column + columns) allocated in `cta`?
bool allocated(const Cta& cta, uint32_t column, uint32_t columns) {
  if (column + columns > kTmemColumns || columns == 0) return false;
  const uint32_t first = column / 32, last = (column + columns - 1) / 32;
  for (uint32_t u = first; u <= last; ++u)
    if (((cta.tmem.allocated >> u) & 1) == 0) return false;
  return true;
}

// The CTAs an operation of `cta_group` spans: this CTA, or the pair.
std::vector<Cta*> group_ctas(Cta& cta, int cta_group) {
  if (cta_group == 1) return {&cta};
  Cluster& c = *cta.cluster;
  const uint32_t even = cta.rank & ~1u;
  if (even + 1 >= c.ctas.size()) {
    violation("PTX ISA 9.7.16.5.1 CTA pair",
              format(".cta_group::2 in a cluster of %zu CTA(s): CTA %u has no peer", c.ctas.size(),
                     cta.rank));
  }
  return {c.ctas[even].get(), c.ctas[even + 1].get()};
}

void check_cta_group(int cta_group) {
  if (cta_group != 1 && cta_group != 2) {
    violation("PTX ISA 9.7.16 tcgen05", format(".cta_group::%d", cta_group));
  }
}

// Allocates the same columns in every CTA of `ctas`; false when they are not
// free in all of them.
bool try_allocate(const std::vector<Cta*>& ctas, uint32_t columns, uint32_t* taddr) {
  const uint32_t units = columns / 32;
  for (uint32_t start = 0; start + units <= 16; start += units) {
    const uint32_t mask = column_mask(start * 32, columns);
    bool free = true;
    for (const Cta* c : ctas) free = free && (c->tmem.allocated & mask) == 0;
    if (!free) continue;
    for (Cta* c : ctas) {
      c->tmem.allocated |= mask;
      c->tmem.last_alloc = columns;
      cells(*c);
    }
    *taddr = start * 32;  // lane 0
    return true;
  }
  return false;
}

void check_alloc_request(const Cta& cta, uint32_t columns) {
  if (!power_of_two_columns(columns)) {
    violation(kAllocRef, format("tcgen05.alloc of %u columns: a power of 2 in 32..512", columns));
  }
  if (cta.tmem.relinquished) {
    violation(kAllocRef,
              format("tcgen05.alloc by CTA %u after tcgen05.relinquish_alloc_permit", cta.rank));
  }
  if (cta.tmem.last_alloc != 0 && columns > cta.tmem.last_alloc) {
    violation(kAllocRef, format("tcgen05.alloc of %u columns after one of %u in CTA %u: the "
                                "number of columns must not increase",
                                columns, cta.tmem.last_alloc, cta.rank));
  }
}

void allocate(Cta& cta, uint32_t columns, uint32_t slot, int cta_group) {
  std::vector<Cta*> ctas = group_ctas(cta, cta_group);
  uint32_t slots[2] = {slot, slot};
  if (cta_group == 2) {
    TmemPair& pair = cta.cluster->pairs[cta.rank / 2];
    const uint32_t me = cta.rank & 1;
    pair.alloc[me] = {true, columns, slot, 0};
    if (!pair.alloc[me ^ 1].present) {
      const uint64_t done = pair.alloc_done;
      while (pair.alloc_done == done) {
        block(pair.waiters, {WaitKind::Pair, "tcgen05.alloc.cta_group::2", 0, 0});
      }
      return;  // the peer's warp allocated for both
    }
    if (pair.alloc[0].columns != pair.alloc[1].columns) {
      violation(kAllocRef, format("tcgen05.alloc.cta_group::2: the pair asks for %u and %u columns",
                                  pair.alloc[0].columns, pair.alloc[1].columns));
    }
    slots[0] = pair.alloc[0].slot;
    slots[1] = pair.alloc[1].slot;
  }
  for (Cta* c : ctas) check_alloc_request(*c, columns);
  uint32_t taddr = 0;
  while (!try_allocate(ctas, columns, &taddr)) {
    block(cta.tmem.waiters, {WaitKind::TmemAlloc, "tcgen05.alloc", columns, 0});
  }
  for (size_t i = 0; i < ctas.size(); ++i) std::memcpy(ctas[i]->window + slots[i], &taddr, 4);
  if (cta_group == 2) {
    TmemPair& pair = cta.cluster->pairs[cta.rank / 2];
    pair.alloc[0] = pair.alloc[1] = {};
    ++pair.alloc_done;
    wake_all(pair.waiters);
  }
}

bool mma_in_flight(const AsyncOp& op, const void* ctas) {
  const auto& v = *static_cast<const std::vector<Cta*>*>(ctas);
  if (op.kind != AsyncKind::Mma) return false;
  for (const Cta* c : v)
    if (op.cluster == c->cluster && (op.origin_rank & ~1u) == (c->rank & ~1u)) return true;
  return false;
}

void deallocate(Cta& cta, uint32_t taddr, uint32_t columns, int cta_group) {
  std::vector<Cta*> ctas = group_ctas(cta, cta_group);
  if (cta_group == 2) {
    TmemPair& pair = cta.cluster->pairs[cta.rank / 2];
    const uint32_t me = cta.rank & 1;
    pair.dealloc[me] = {true, columns, 0, taddr};
    if (!pair.dealloc[me ^ 1].present) {
      const uint64_t done = pair.dealloc_done;
      while (pair.dealloc_done == done) {
        block(pair.waiters, {WaitKind::Pair, "tcgen05.dealloc.cta_group::2", 0, 0});
      }
      return;
    }
    if (pair.dealloc[0].taddr != pair.dealloc[1].taddr ||
        pair.dealloc[0].columns != pair.dealloc[1].columns) {
      violation(kAllocRef, "tcgen05.dealloc.cta_group::2: the pair frees different columns");
    }
  }
  const uint32_t column = taddr & 0xffff;
  if ((taddr >> 16) != 0 || !power_of_two_columns(columns) || column % columns != 0) {
    violation(kAllocRef,
              format("tcgen05.dealloc of 0x%08x, %u columns: not an allocation", taddr, columns));
  }
  for (Cta* c : ctas) {
    if (!allocated(*c, column, columns)) {
      violation(kAllocRef, format("tcgen05.dealloc of columns [%u, %u) of CTA %u, which are not "
                                  "allocated",
                                  column, column + columns, c->rank));
    }
    for (const Thread& t : c->threads) {
      if (!t.tcgen05.loads.empty()) {
        violation(kAllocRef, format("tcgen05.dealloc while thread %u of CTA %u still has "
                                    "tcgen05.ld in flight (no wait::ld)",
                                    t.tid, c->rank));
      }
    }
  }
  for (const AsyncOp& op : machine().engine.pending) {
    if (mma_in_flight(op, &ctas)) {
      violation(kAllocRef, format("tcgen05.dealloc while tcgen05.mma #%llu on this CTA pair's "
                                  "Tensor Memory is still in flight (no commit observed)",
                                  static_cast<unsigned long long>(op.seq)));
    }
  }
  // Nothing the peer issued may still target a CTA that frees its TMEM: it
  // is about to exit (PTX ISA 9.7.16.7.1: synchronise with the peer before
  // the collective dealloc; "Warps can immediately exit after deallocating").
  for (Cta* c : ctas) {
    const std::string from_peer = async_pending_for(c->cluster, int(c->rank), true);
    if (!from_peer.empty()) {
      violation(kAllocRef, format("tcgen05.dealloc while operations of another CTA still "
                                  "target CTA %u's shared memory or TMEM:\n%s",
                                  c->rank, from_peer.c_str()));
    }
  }
  const uint32_t mask = column_mask(column, columns);
  for (Cta* c : ctas) {
    c->tmem.allocated &= ~mask;
    uint32_t* cell = cells(*c);
    for (uint32_t lane = 0; lane < kTmemLanes; ++lane)
      for (uint32_t col = column; col < column + columns; ++col)
        cell[lane * kTmemColumns + col] = kPoison;
    wake_all(c->tmem.waiters);
  }
  if (cta_group == 2) {
    TmemPair& pair = cta.cluster->pairs[cta.rank / 2];
    pair.dealloc[0] = pair.dealloc[1] = {};
    ++pair.dealloc_done;
    wake_all(pair.waiters);
  }
}

void check_fence_after(const Thread& t, const char* op) {
  if (t.tcgen05.fence_after_needed) {
    violation("PTX ISA 9.7.16.6.4 tcgen05 memory consistency",
              format("%s after an mbarrier wait without tcgen05.fence::after_thread_sync in "
                     "between: it is not ordered after the work the wait synchronized with",
                     op));
  }
}

// A and B of each CTA of the MMA's group, as its shared memory holds them now.
std::vector<Operand> read_operands(const std::vector<Cta*>& ctas, const Idesc& id, uint64_t a_desc,
                                   uint64_t b_desc) {
  const int rows = id.m / int(ctas.size()), n_part = id.n / int(ctas.size());
  std::vector<Operand> out;
  for (const Cta* c : ctas) {
    out.push_back(
        load_operand(*c, decode_desc(a_desc, id.trans_a, "A"), rows, id.bf16, "tcgen05.mma A"));
    out.push_back(
        load_operand(*c, decode_desc(b_desc, id.trans_b, "B"), n_part, id.bf16, "tcgen05.mma B"));
  }
  return out;
}

}  // namespace

void perform_mma(const AsyncOp& op) {
  Cluster& cluster = *op.cluster;
  Cta& issuer = *cluster.ctas[op.origin_rank];
  const Idesc id = decode_idesc(op.idesc, op.cta_group);
  const std::vector<Cta*> ctas = group_ctas(issuer, op.cta_group);
  const int rows = id.m / int(ctas.size());  // per CTA
  const int n = id.n, n_part = n / int(ctas.size());
  const uint32_t column = op.d_tmem & 0xffff;
  for (const Cta* c : ctas) {
    if (c->exited) violation(kMmaRef, format("tcgen05.mma on CTA %u, which has exited", c->rank));
    if (!allocated(*c, column, uint32_t(n))) {
      violation(kMmaRef, format("tcgen05.mma writes TMEM columns [%u, %u) of CTA %u, which are not "
                                "allocated (any more)",
                                column, column + n, c->rank));
    }
  }
  const std::vector<Operand> now = read_operands(ctas, id, op.a_desc, op.b_desc);
  for (size_t i = 0; i < now.size(); ++i) {
    check_unchanged(op.operands[i], now[i], i % 2 ? "tcgen05.mma B" : "tcgen05.mma A");
  }
  // B's N rows: CTA v holds rows [v N/2, (v + 1) N/2).
  std::vector<float> b(size_t(n) * 16);
  for (size_t v = 0; v < ctas.size(); ++v) {
    std::memcpy(b.data() + v * size_t(n_part) * 16, op.operands[2 * v + 1].values.data(),
                size_t(n_part) * 16 * 4);
  }
  const float sa = id.negate_a ? -1.0f : 1.0f, sb = id.negate_b ? -1.0f : 1.0f;
  for (size_t v = 0; v < ctas.size(); ++v) {
    const float* a = op.operands[2 * v].values.data();
    uint32_t* cell = cells(*ctas[v]);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < n; ++c) {
        float s = 0.0f;
        for (int k = 0; k < 16; ++k) s += (sa * a[r * 16 + k]) * (sb * b[c * 16 + k]);
        uint32_t& dst = cell[size_t(r) * kTmemColumns + column + c];
        if (op.accumulate) {
          float old;
          std::memcpy(&old, &dst, 4);
          s += old;
        }
        std::memcpy(&dst, &s, 4);
      }
    }
  }
}

void perform_commit(const AsyncOp& op) {
  Cluster& cluster = *op.cluster;
  const Cta& origin = *cluster.ctas[op.origin_rank];
  for (uint32_t rank = 0; rank < cluster.ctas.size(); ++rank) {
    if (((op.cta_mask >> rank) & 1) == 0) continue;
    Cta& cta = *cluster.ctas[rank];
    if (cta.exited) {
      violation("PTX ISA 9.7.16.12.1 tcgen05.commit",
                format("tcgen05.commit arrives on CTA %u, which has exited", rank));
    }
    MbarrierState& b = mbarrier_at(cta, op.bar_offset, origin, "tcgen05.commit");
    mbarrier_arrive_on(cta, b, "tcgen05.commit");
  }
}

// ---- the primitives ---------------------------------------------------------

void tmem_alloc(uint32_t* smem_slot, uint32_t columns, int cta_group) {
  check_cta_group(cta_group);
  Thread& t = self();
  Cta& cta = *t.cta;
  const int64_t slot = window_offset(cta, smem_slot);
  if (slot < int64_t(kReservedSmem) || slot % 4 != 0) {
    violation(kAllocRef, format("tcgen05.alloc: destination %p is not 4-byte aligned shared "
                                "memory of the CTA",
                                static_cast<void*>(smem_slot)));
  }
  collective(Group::Warp, "tcgen05.alloc", {columns, uint64_t(slot), uint64_t(cta_group)}, 0,
             nullptr,
             [&](Collective&, uint64_t*) { allocate(cta, columns, uint32_t(slot), cta_group); });
}

void tmem_dealloc(uint32_t taddr, uint32_t columns, int cta_group) {
  check_cta_group(cta_group);
  Cta& cta = *self().cta;
  collective(Group::Warp, "tcgen05.dealloc", {taddr, columns, uint64_t(cta_group)}, 0, nullptr,
             [&](Collective&, uint64_t*) { deallocate(cta, taddr, columns, cta_group); });
}

void tmem_relinquish(int cta_group) {
  check_cta_group(cta_group);
  Cta& cta = *self().cta;
  collective(Group::Warp, "tcgen05.relinquish_alloc_permit", {uint64_t(cta_group), 0, 0}, 0,
             nullptr, [&cta](Collective&, uint64_t*) { cta.tmem.relinquished = true; });
}

void umma_f16(uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc, uint32_t idesc, bool accumulate,
              int cta_group) {
  check_cta_group(cta_group);
  Thread& t = self();
  Cta& cta = *t.cta;
  if (cta_group == 2 && (cta.rank & 1) != 0) {
    violation(kMmaRef,
              format("tcgen05.mma.cta_group::2 issued by the odd CTA %u of its pair", cta.rank));
  }
  check_fence_after(t, "tcgen05.mma");
  const Idesc id = decode_idesc(idesc, cta_group);
  const uint32_t column = d_tmem & 0xffff;
  for (Cta* c : group_ctas(cta, cta_group)) {
    if (c->exited) {
      violation(kMmaRef,
                format("tcgen05.mma.cta_group::2 while the peer CTA %u has exited", c->rank));
    }
    if ((d_tmem >> 16) != 0 || !allocated(*c, column, uint32_t(id.n))) {
      violation(kMmaRef, format("tcgen05.mma D at 0x%08x (lane %u, columns [%u, %u)) is not "
                                "allocated Tensor Memory of CTA %u",
                                d_tmem, d_tmem >> 16, column, column + id.n, c->rank));
    }
  }
  AsyncOp a;
  a.operands = read_operands(group_ctas(cta, cta_group), id, a_desc, b_desc);
  for (size_t v = 0; v < a.operands.size() / 2; ++v) {
    const Cta& c = *group_ctas(cta, cta_group)[v];
    check_no_pending_load(c, a.operands[2 * v].range, "tcgen05.mma (A)");
    check_no_pending_load(c, a.operands[2 * v + 1].range, "tcgen05.mma (B)");
    a.reads[v] = a.operands[2 * v].range;
    a.reads[v].add(a.operands[2 * v + 1].range.lo,
                   a.operands[2 * v + 1].range.hi - a.operands[2 * v + 1].range.lo);
  }
  a.kind = AsyncKind::Mma;
  a.stream = uint64_t(cta.cluster->index) << 32 | uint64_t(cta.rank) << 16 | t.tid;
  ++a.stream;
  a.cluster = cta.cluster;
  a.origin_rank = cta.rank;
  a.origin_tid = t.tid;
  a.d_tmem = d_tmem;
  a.a_desc = a_desc;
  a.b_desc = b_desc;
  a.idesc = idesc;
  a.accumulate = accumulate;
  a.cta_group = cta_group;
  async_submit(a);
}

void umma_commit(uint64_t* bar, uint16_t cta_mask, int cta_group) {
  check_cta_group(cta_group);
  Thread& t = self();
  Cta& cta = *t.cta;
  if (cta_mask == 0 || (cta_mask >> cta.cluster->ctas.size()) != 0) {
    violation(
        "PTX ISA 9.7.16.12.1 tcgen05.commit",
        format("CTA mask 0x%x for a cluster of %zu CTAs", cta_mask, cta.cluster->ctas.size()));
  }
  const int64_t off = window_offset(cta, bar);
  if (off < int64_t(kReservedSmem) || off % 8 != 0) {
    violation(
        "PTX ISA 9.7.16.12.1 tcgen05.commit",
        format("the mbarrier %p is not 8-byte aligned shared memory", static_cast<void*>(bar)));
  }
  AsyncOp a;
  a.kind = AsyncKind::Commit;
  a.stream = (uint64_t(cta.cluster->index) << 32 | uint64_t(cta.rank) << 16 | t.tid) + 1;
  a.cluster = cta.cluster;
  a.origin_rank = cta.rank;
  a.origin_tid = t.tid;
  a.cta_mask = cta_mask;
  a.bar_offset = uint32_t(off);
  a.cta_group = cta_group;
  async_submit(a);
}

void tmem_load_32x32b(uint32_t taddr, float* out, int columns) {
  Thread& t = self();
  Cta& cta = *t.cta;
  check_fence_after(t, "tcgen05.ld");
  taddr += machine().options.faults.tmem_ld_lane_offset << 16;
  const uint32_t warp = warp_of(t);
  collective(Group::Warp, "tcgen05.ld.32x32b", {taddr, uint64_t(columns), 0}, 0, out,
             [&](Collective& c, uint64_t*) {
               const uint32_t lane = taddr >> 16, column = taddr & 0xffff;
               const uint32_t w = warp % 4, lo = 32 * w, hi = lo + 31;
               for (uint32_t i = 0; i < 32; ++i) {
                 if (lane + i < lo || lane + i > hi) {
                   violation(kLdRef, format("Instruction tcgen05.ld of the warp %u can only access "
                                            "lanes %u to %u but the instruction tried to access "
                                            "the lane %u",
                                            w, lo, hi, lane + i));
                 }
               }
               if (!allocated(cta, column, uint32_t(columns))) {
                 violation(kLdRef, format("tcgen05.ld of columns [%u, %u): not allocated Tensor "
                                          "Memory of CTA %u",
                                          column, column + columns, cta.rank));
               }
               for (uint32_t i = 0; i < 32; ++i) {
                 Thread& lane_thread = cta.threads[warp * 32 + i];
                 lane_thread.tcgen05.loads.push_back(
                     {lane + i, column, uint32_t(columns), static_cast<float*>(c.pointers[i])});
               }
             });
}

void tmem_load_wait() {
  Cta& cta = *self().cta;
  const uint32_t warp = warp_of(self());
  collective(Group::Warp, "tcgen05.wait::ld", {0, 0, 0}, 0, nullptr, [&](Collective&, uint64_t*) {
    for (uint32_t i = 0; i < 32; ++i) {
      Thread& lane_thread = cta.threads[warp * 32 + i];
      for (const TmemLoad& ld : lane_thread.tcgen05.loads) {
        if (!allocated(cta, ld.column, ld.columns)) {
          violation(kLdRef, "tcgen05.ld completes on deallocated Tensor Memory");
        }
        std::memcpy(ld.out, cells(cta) + size_t(ld.lane) * kTmemColumns + ld.column,
                    size_t(ld.columns) * 4);
      }
      lane_thread.tcgen05.loads.clear();
    }
  });
}

// Orders this thread's prior tcgen05 operations before its next thread
// synchronization; they are ordered by construction here.
void tcgen05_fence_before_sync() { preemption_point(); }

void tcgen05_fence_after_sync() {
  self().tcgen05.fence_after_needed = false;
  preemption_point();
}

}  // namespace bwgemm::emu
