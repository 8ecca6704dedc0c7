// SPDX-License-Identifier: MIT
// PTX ISA 9.7.15 (warpgroup MMA), for wgmma.mma_async.sync.aligned.m64nNk16
// .f32.{f16,bf16}.{f16,bf16} with both operands in shared memory:
//  - 9.7.15.5.1.2.2 matrix descriptor: start address, LBO and SBO (>> 4) in
//    bits 0-13, 16-29, 32-45, base offset in 49-51, swizzle mode in 62-63
//    (0 none, 1 128B, 2 64B, 3 32B); other bits reserved;
//  - 9.7.15.5.1 canonical layouts (operand.cpp); imm-trans-a/b select the
//    M/N-major (transposed) layout;
//  - register fragments (9.7.15.5.1), accumulator D of m64nNk16 (f32):
//    thread t of warp w of the warpgroup holds, for each 8-column block j,
//    d[4j .. 4j + 3] = D(r, c), D(r, c + 1), D(r + 8, c), D(r + 8, c + 1)
//    with r = 16 w + t / 4, c = 8 j + 2 (t % 4); A of m64nNk16 (f16/bf16)
//    in registers: a[0..3] = A(r, c..c+1), A(r + 8, c..c+1), A(r, c+8..c+9),
//    A(r + 8, c+8..c+9) with c = 2 (t % 4), each register's low half the
//    first element;
//  - wgmma.fence before the first mma_async and between register accesses
//    and an mma_async on those registers; wgmma.commit_group closes the
//    warpgroup's pending mma_async ops into a group, wait_group N waits until
//    at most N groups are pending. Every one is .sync.aligned: all 128
//    threads, the same operands.
// The mma_async is performed when a wait_group needs its group complete (the
// latest point the hardware may finish it): a kernel that releases a stage
// before waiting for the wgmma reading it sees the overwritten data.
#include <vector>

#include "emu/api.h"
#include "emu/async.h"
#include "emu/operand.h"
#include "emu/report.h"
#include "emu/sync.h"

namespace bwgemm::emu {
namespace {

const char* const kDescRef = "PTX ISA 9.7.15.5.1.2.2 matrix descriptor";

SmemMatrix decode_desc(uint64_t desc, bool mn_major, const char* which) {
  desc ^= uint64_t(machine().options.faults.desc_swizzle_xor & 7) << 61;
  constexpr uint64_t kReserved =
      (uint64_t{3} << 14) | (uint64_t{3} << 30) | (uint64_t{7} << 46) | (uint64_t{0x3ff} << 52);
  if (desc & kReserved) {
    violation(kDescRef, format("wgmma %s descriptor 0x%016llx sets reserved bits", which,
                               static_cast<unsigned long long>(desc)));
  }
  if ((desc >> 49) & 7) {
    unmodelled(kDescRef, format("wgmma %s descriptor 0x%016llx: a non-zero base offset", which,
                                static_cast<unsigned long long>(desc)));
  }
  static const uint32_t kSpan[4] = {0, 128, 64, 32};
  SmemMatrix m;
  m.start = uint32_t(desc & 0x3fff) << 4;
  m.lbo = uint32_t((desc >> 16) & 0x3fff) << 4;
  m.sbo = uint32_t((desc >> 32) & 0x3fff) << 4;
  m.span = kSpan[desc >> 62];
  m.mn_major = mn_major;
  return m;
}

// A from the 128 threads' registers (the layout above), as values[r * 16 + k].
Operand read_a_registers(const WgmmaOp& op) {
  Operand a;
  a.values.assign(64 * 16, 0.0f);
  for (int t = 0; t < 128; ++t) {
    const int r = 16 * (t / 32) + t % 32 / 4, c = 2 * (t % 4);
    for (int i = 0; i < 4; ++i) {
      const uint32_t word = op.a_registers[t][i];
      const int row = r + 8 * (i % 2), col = c + 8 * (i / 2);
      a.values[size_t(row) * 16 + col] = element_to_float(uint16_t(word), op.bf16);
      a.values[size_t(row) * 16 + col + 1] = element_to_float(uint16_t(word >> 16), op.bf16);
    }
  }
  return a;
}

Operand read_a(const Cta& cta, const WgmmaOp& op) {
  if (op.a_registers[0] != nullptr) return read_a_registers(op);
  return load_operand(cta, decode_desc(op.desc_a, op.trans_a, "A"), 64, op.bf16, "wgmma A");
}

Operand read_b(const Cta& cta, const WgmmaOp& op) {
  return load_operand(cta, decode_desc(op.desc_b, op.trans_b, "B"), op.n, op.bf16, "wgmma B");
}

void perform(const Cta& cta, const WgmmaOp& op) {
  check_unchanged(op.a, read_a(cta, op), "wgmma A");
  check_unchanged(op.b, read_b(cta, op), "wgmma B");
  const int n = op.n;
  const float* a = op.a.values.data();
  const float* b = op.b.values.data();
  std::vector<float> d(size_t(64) * n);
  for (int r = 0; r < 64; ++r) {
    for (int c = 0; c < n; ++c) {
      float s = 0.0f;
      for (int k = 0; k < 16; ++k) s += a[r * 16 + k] * b[c * 16 + k];
      d[size_t(r) * n + c] = s;
    }
  }
  for (int t = 0; t < 128; ++t) {
    float* acc = op.d[t];
    const int w = t / 32, l = t % 32;
    const int r = 16 * w + l / 4;
    for (int j = 0; j < n / 8; ++j) {
      const int c = 8 * j + 2 * (l % 4);
      const float v[4] = {d[size_t(r) * n + c], d[size_t(r) * n + c + 1], d[size_t(r + 8) * n + c],
                          d[size_t(r + 8) * n + c + 1]};
      for (int e = 0; e < 4; ++e) acc[4 * j + e] = op.accumulate ? acc[4 * j + e] + v[e] : v[e];
    }
  }
}

WgmmaWarpgroup& state() {
  Thread& t = self();
  return t.cta->wgmma[t.tid / 128];
}

void check_full_warpgroup(const char* op) {
  const Thread& t = self();
  if (t.tid / 128 * 128 + 128 > t.cta->threads.size()) {
    violation("PTX ISA 9.7.15 wgmma", format("%s by a partial warpgroup", op));
  }
}

}  // namespace

void wgmma_fence() {
  check_full_warpgroup("wgmma.fence");
  WgmmaWarpgroup& wg = state();
  collective(Group::Warpgroup, "wgmma.fence", {0, 0, 0}, 0, nullptr, [&wg](Collective&, uint64_t*) {
    wg.fenced = true;
    wg.released.clear();
  });
}

namespace {

// What each thread hands the collective: its accumulators and, for A from
// registers, its four A registers.
struct ThreadOperands {
  float* d;
  const uint32_t* a;
};

void issue(int n, MmaInput type, bool trans_a, bool trans_b, ThreadOperands mine, uint64_t desc_a,
           uint64_t desc_b, bool accumulate) {
  check_full_warpgroup("wgmma.mma_async");
  if (n % 8 != 0 || n < 8 || n > 256) {
    violation("PTX ISA wgmma.mma_async", format("m64n%dk16 is not a valid shape", n));
  }
  WgmmaWarpgroup& wg = state();
  const Cta& cta = *self().cta;
  const uint64_t key[3] = {desc_a, desc_b,
                           uint64_t(n) | uint64_t(type) << 16 | uint64_t(trans_a) << 24 |
                               uint64_t(trans_b) << 25 | uint64_t(accumulate) << 26 |
                               uint64_t(mine.a != nullptr) << 27};
  collective(Group::Warpgroup, "wgmma.mma_async", key, 0, &mine, [&](Collective& c, uint64_t*) {
    if (!wg.started && !wg.fenced) {
      violation("PTX ISA wgmma.fence",
                "the warpgroup's first wgmma.mma_async is not preceded by wgmma.fence");
    }
    WgmmaOp op;
    op.n = n;
    op.bf16 = type == MmaInput::BF16;
    op.trans_a = trans_a;
    op.trans_b = trans_b;
    op.accumulate = accumulate;
    op.desc_a = desc_a;
    op.desc_b = desc_b;
    for (int i = 0; i < 128; ++i) {
      const auto* theirs = static_cast<const ThreadOperands*>(c.pointers[i]);
      op.d[i] = theirs->d;
      op.a_registers[i] = theirs->a;
      for (const float* r : wg.released) {
        if (r == op.d[i]) {
          violation("PTX ISA wgmma.fence",
                    "wgmma.mma_async on accumulators handed back by wgmma.wait_group "
                    "without a wgmma.fence in between");
        }
      }
    }
    // Operands are read (and checked for pending TMA writes) at issue and
    // again at completion, which must agree.
    op.a = read_a(cta, op);
    op.b = read_b(cta, op);
    if (op.a_registers[0] == nullptr) check_no_pending_load(cta, op.a.range, "wgmma.mma_async (A)");
    check_no_pending_load(cta, op.b.range, "wgmma.mma_async (B)");
    wg.started = true;
    wg.uncommitted.push_back(std::move(op));
  });
}

}  // namespace

void wgmma_mma(int n, MmaInput type, bool trans_a, bool trans_b, float* d, uint64_t desc_a,
               uint64_t desc_b, bool accumulate) {
  issue(n, type, trans_a, trans_b, {d, nullptr}, desc_a, desc_b, accumulate);
}

void wgmma_mma_from_registers(int n, MmaInput type, bool trans_b, float* d, const uint32_t* a,
                              uint64_t desc_b, bool accumulate) {
  issue(n, type, false, trans_b, {d, a}, 0, desc_b, accumulate);
}

void wgmma_commit() {
  check_full_warpgroup("wgmma.commit_group");
  WgmmaWarpgroup& wg = state();
  collective(Group::Warpgroup, "wgmma.commit_group", {0, 0, 0}, 0, nullptr,
             [&wg](Collective&, uint64_t*) {
               wg.groups.push_back(std::move(wg.uncommitted));
               wg.uncommitted.clear();
             });
}

void wgmma_wait(int pending) {
  check_full_warpgroup("wgmma.wait_group");
  Thread& t = self();
  const Cta& cta = *t.cta;
  WgmmaWarpgroup& wg = state();
  const bool skip = pending > 0 && machine().options.faults.skip_wgmma_wait;
  collective(Group::Warpgroup, "wgmma.wait_group", {uint64_t(pending), 0, 0}, 0, nullptr,
             [&](Collective&, uint64_t*) {
               if (skip) return;
               while (wg.groups.size() > size_t(pending)) {
                 for (const WgmmaOp& op : wg.groups.front()) {
                   perform(cta, op);
                   wg.released.push_back(op.d[0]);
                 }
                 wg.groups.pop_front();
               }
               wg.fenced = false;
             });
}

}  // namespace bwgemm::emu
