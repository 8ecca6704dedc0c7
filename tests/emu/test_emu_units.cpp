// SPDX-License-Identifier: MIT
// The emulator's models one by one, with small kernels written against the
// primitive layer (src/kernels/ptx/): what correct code computes, and that
// each rule the models enforce stops a kernel that breaks it.
#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "emu/emu.h"
#include "emu/tensor_map.h"
#include "kernels/common/smem_desc.h"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/fence.cuh"
#include "kernels/ptx/index.cuh"
#include "kernels/ptx/tcgen05.cuh"
#include "kernels/ptx/tma.cuh"
#include "kernels/ptx/warp.cuh"
#include "kernels/ptx/wgmma.cuh"

using namespace bwgemm;

namespace {

int g_failures = 0;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      std::printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      ++g_failures;                                                          \
    }                                                                        \
  } while (0)

using Body = std::function<void()>;

emu::RunResult launch(uint32_t cluster_size, uint32_t threads, uint32_t smem, const Body& body,
                      uint64_t seed = 0) {
  emu::Options o;
  o.seed = seed;
  return emu::run(
      {1, cluster_size, threads, smem}, o, [](void* b) { (*static_cast<const Body*>(b))(); },
      const_cast<Body*>(&body));
}

void expect_ok(const emu::RunResult& r) {
  if (!r.ok) {
    std::printf("  unexpected report:\n%s", r.report.c_str());
    ++g_failures;
  }
}

void expect_report(const emu::RunResult& r, const char* text) {
  if (r.ok || r.report.find(text) == std::string::npos) {
    std::printf("  expected a report containing \"%s\", got %s\n%s", text,
                r.ok ? "a clean run" : "another report:", r.report.c_str());
    ++g_failures;
  }
}

ptx::Mbarrier* barrier(int i = 0) {
  return reinterpret_cast<ptx::Mbarrier*>(ptx::dynamic_smem()) + i;
}

// ---- mbarrier ----------------------------------------------------------------

void mbarrier_phases() {
  // 32 producers publish a value per phase on barrier 0 (32 arrivals); 32
  // consumers read it and hand the slot back on barrier 1, for three phases.
  for (uint64_t seed : {0, 7, 8}) {
    std::vector<int> seen(3 * 64, 0);
    int data[3] = {};
    expect_ok(launch(
        1, 64, 1024,
        [&] {
          const uint32_t t = ptx::thread_index();
          if (t == 0) {
            ptx::mbarrier_init(barrier(0), 32);
            ptx::mbarrier_init(barrier(1), 32);
          }
          ptx::cta_sync();
          for (uint32_t phase = 0; phase < 3; ++phase) {
            if (t < 32) {
              if (t == 0) data[phase] = int(phase) + 10;
              ptx::mbarrier_arrive(barrier(0));
              ptx::mbarrier_wait(barrier(1), phase & 1);
            } else {
              ptx::mbarrier_wait(barrier(0), phase & 1);
              seen[phase * 64 + t] = data[phase];
              ptx::mbarrier_arrive(barrier(1));
            }
          }
        },
        seed));
    for (uint32_t phase = 0; phase < 3; ++phase)
      for (uint32_t t = 32; t < 64; ++t) CHECK(seen[phase * 64 + t] == int(phase) + 10);
  }
  // Consumers that may fall two phases behind (no hand-back): a parity wait
  // cannot tell phase 1 from phase 3, and random schedules find it.
  int deadlocks = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const emu::RunResult r = launch(
        1, 64, 1024,
        [] {
          const uint32_t t = ptx::thread_index();
          if (t == 0) ptx::mbarrier_init(barrier(), 32);
          ptx::cta_sync();
          for (uint32_t phase = 0; phase < 3; ++phase) {
            if (t < 32) ptx::mbarrier_arrive(barrier());
            ptx::mbarrier_wait(barrier(), phase & 1);
          }
        },
        seed);
    deadlocks += !r.ok && r.report.find("DEADLOCK") != std::string::npos;
  }
  CHECK(deadlocks > 0);
}

void mbarrier_unobserved_phase() {
  // The second arrive lands in phase 1 while nobody observed phase 0.
  expect_report(launch(1, 32, 1024,
                       [] {
                         if (ptx::thread_index() != 0) return;
                         ptx::mbarrier_init(barrier(), 1);
                         ptx::mbarrier_arrive(barrier());
                         ptx::mbarrier_arrive(barrier());
                       }),
                "no successful test_wait/try_wait observed the completion of phase 0");
}

void mbarrier_tx_overflow() {
  expect_report(launch(1, 32, 1024,
                       [] {
                         if (ptx::thread_index() != 0) return;
                         ptx::mbarrier_init(barrier(), 2);
                         ptx::mbarrier_arrive_expect_tx(barrier(), 1u << 20);
                       }),
                "leaves the range");
}

void mbarrier_uninitialised() {
  expect_report(launch(1, 32, 1024,
                       [] {
                         if (ptx::thread_index() == 0) ptx::mbarrier_arrive(barrier(1));
                       }),
                "no initialised mbarrier");
}

void mbarrier_remote_before_visible() {
  // CTA 1 arrives on CTA 0's barrier without the fence + cluster barrier
  // (deterministic order: CTA 0's thread 0 has initialised it and waits).
  expect_report(launch(2, 32, 1024,
                       [] {
                         if (ptx::thread_index() != 0) return;
                         if (ptx::cluster_cta_rank() == 0) {
                           ptx::mbarrier_init(barrier(), 1);
                           ptx::mbarrier_wait(barrier(), 0);
                         } else {
                           ptx::mbarrier_arrive_cluster(barrier(), 0);
                         }
                       }),
                "before its initialisation was made visible");
  // With them, the remote arrive completes the phase.
  expect_ok(launch(2, 32, 1024, [] {
    const bool leader = ptx::cluster_cta_rank() == 0;
    if (leader && ptx::thread_index() == 0) {
      ptx::mbarrier_init(barrier(), 1);
      ptx::fence_mbarrier_init();
    }
    ptx::cluster_sync();
    if (!leader && ptx::thread_index() == 0) ptx::mbarrier_arrive_cluster(barrier(), 0);
    if (leader) ptx::mbarrier_wait(barrier(), 0);
    ptx::cluster_sync();
  }));
}

void deadlock_report() {
  const emu::RunResult r = launch(2, 64, 1024, [] {
    if (ptx::thread_index() == 0) {
      ptx::mbarrier_init(barrier(), 2);
      ptx::mbarrier_arrive(barrier());
      ptx::mbarrier_wait(barrier(), 0);  // the second arrival never comes
    }
    ptx::cluster_sync();
  });
  expect_report(r, "DEADLOCK");
  expect_report(r, "thread 0: mbarrier.try_wait.parity on mbarrier 0x400, parity 0");
  expect_report(r, "threads 1-63: barrier.cluster.wait");
  expect_report(r, "expected 2, pending 1");
}

// The emulator has no time: a bounded wait's budget does not change when it
// times out (docs/emulation.md).
constexpr uint64_t kAnyBudget = 100000000;

void bounded_waits() {
  // A phase that completes: the wait returns true and nothing times out.
  bool completed = false;
  emu::RunResult r = launch(1, 64, 1024, [&] {
    const uint32_t t = ptx::thread_index();
    if (t == 0) ptx::mbarrier_init(barrier(), 1);
    ptx::cta_sync();
    if (t == 32) ptx::mbarrier_arrive(barrier());
    if (t == 0) completed = ptx::mbarrier_wait_bounded(barrier(), 0, kAnyBudget);
  });
  expect_ok(r);
  CHECK(completed && r.timeouts == 0);
  // A phase that never completes: the wait times out (false) once nothing
  // else can happen, and the thread goes on; here its arrival on a second
  // barrier releases a plain wait.
  for (uint64_t seed : {0, 3}) {
    int result = -1;
    r = launch(
        1, 64, 1024,
        [&] {
          const uint32_t t = ptx::thread_index();
          if (t == 0) {
            ptx::mbarrier_init(barrier(0), 2);
            ptx::mbarrier_init(barrier(1), 1);
          }
          ptx::cta_sync();
          if (t == 0) {
            ptx::mbarrier_arrive(barrier(0));  // the second arrival never comes
            result = ptx::mbarrier_wait_bounded(barrier(0), 0, kAnyBudget);
            ptx::mbarrier_arrive(barrier(1));
          }
          if (t == 32) ptx::mbarrier_wait(barrier(1), 0);
        },
        seed);
    expect_ok(r);
    CHECK(result == 0 && r.timeouts == 1);
  }
  // Plain waits never time out: a stuck plain wait is a deadlock, also
  // after the bounded waits timed out.
  r = launch(1, 64, 1024, [] {
    const uint32_t t = ptx::thread_index();
    if (t == 0) ptx::mbarrier_init(barrier(), 1);
    ptx::cta_sync();
    if (t == 0) ptx::mbarrier_wait_bounded(barrier(), 0, kAnyBudget);
    if (t == 32) ptx::mbarrier_wait(barrier(), 0);
  });
  expect_report(r, "DEADLOCK");
  expect_report(r, "(after 1 bounded waits timed out)");
  expect_report(r, "thread 32: mbarrier.try_wait.parity on mbarrier 0x400, parity 0");
  CHECK(r.timeouts == 1);
  // Retrying a timed-out wait with nothing else changing would go on
  // forever: the second time the run is stuck in the same state it is a
  // deadlock.
  r = launch(1, 32, 1024, [] {
    if (ptx::thread_index() != 0) return;
    ptx::mbarrier_init(barrier(), 1);
    while (!ptx::mbarrier_wait_bounded(barrier(), 0, kAnyBudget)) {
    }
  });
  expect_report(r, "timed out before in this same state");
  expect_report(r, "thread 0: mbarrier.try_wait.parity (bounded wait) on mbarrier 0x400, parity 0");
  CHECK(r.timeouts == 1);
}

// ---- named and cluster barriers, warp collectives ------------------------------

void named_barriers() {
  expect_report(
      launch(1, 128, 1024, [] { ptx::named_barrier_sync(1, ptx::thread_index() < 64 ? 128 : 96); }),
      "expect 128 and 96 threads");
  // 48 threads: a partial warp.
  expect_report(launch(1, 64, 1024,
                       [] {
                         if (ptx::thread_index() < 48) ptx::named_barrier_sync(2, 48);
                       }),
                "multiple of the warp size");
  std::vector<int> order;
  expect_ok(launch(1, 128, 1024, [&] {
    const uint32_t t = ptx::thread_index();
    if (t < 64) {
      if (t == 0) order.push_back(1);
      ptx::named_barrier_sync(3, 128);
    } else {
      ptx::named_barrier_sync(3, 128);
      if (t == 64) order.push_back(2);
    }
  }));
  CHECK(order.size() == 2 && order[0] == 1 && order[1] == 2);
}

void cluster_barrier_twice() {
  expect_report(launch(2, 32, 1024,
                       [] {
                         ptx::cluster_arrive();
                         ptx::cluster_arrive();
                       }),
                "arrive twice");
}

// Distributed shared memory: mapa gives the same offset in the peer's window
// (a store there is the peer's to read), only within the cluster and only
// while the peer has not exited.
void distributed_shared_memory() {
  expect_ok(launch(2, 32, 1024, [] {
    auto* word = reinterpret_cast<uint32_t*>(ptx::dynamic_smem() + 64);
    const uint32_t rank = ptx::cluster_cta_rank();
    if (ptx::thread_index() == 0) *word = 0;
    ptx::cluster_sync();
    if (ptx::thread_index() == 0) *ptx::cluster_peer_pointer(word, rank ^ 1) = 100 + rank;
    ptx::cluster_sync();
    if (ptx::thread_index() == 0) CHECK(*word == 100 + (rank ^ 1));
    ptx::cluster_sync();
  }));
  expect_report(launch(2, 32, 1024,
                       [] {
                         if (ptx::thread_index() == 0)
                           ptx::cluster_peer_pointer(ptx::dynamic_smem(), 2);
                       }),
                "outside the cluster");
  // CTA 1 maps CTA 0's memory after CTA 0 has exited (no cluster barrier).
  expect_report(launch(2, 32, 1024,
                       [] {
                         if (ptx::cluster_cta_rank() == 0) return;
                         ptx::cluster_peer_pointer(ptx::dynamic_smem(), 0);
                       }),
                "has exited");
}

void warp_collectives() {
  std::vector<uint32_t> elected(64), shuffled(64);
  expect_ok(launch(
      1, 64, 1024,
      [&] {
        const uint32_t t = ptx::thread_index();
        elected[t] = ptx::elect_one();
        shuffled[t] = ptx::shfl_idx(t * 10, (t + 1) % 32);
        ptx::sync_warp();
      },
      3));
  for (uint32_t t = 0; t < 64; ++t) {
    CHECK(elected[t] == (t % 32 == 0 ? 1u : 0u));
    CHECK(shuffled[t] == ((t / 32) * 32 + (t + 1) % 32) * 10);
  }
  expect_report(launch(1, 64, 1024,
                       [] {
                         if (ptx::lane_index() == 5) return;  // lane 5 exits
                         ptx::sync_warp();
                       }),
                "exited");
}

// ---- TMA ------------------------------------------------------------------------

// An fp16 tensor of dims[0] x dims[1] x 1 (row stride `ld` elements) whose
// element (x, y) is x + 100 y (+ 1 so that nothing is 0).
struct Tensor {
  std::vector<uint16_t> data;
  CUtensorMap map;
  static uint16_t value(int x, int y) { return uint16_t(1 + x + 100 * y); }
  Tensor(uint32_t w, uint32_t h, uint32_t ld, uint32_t box_w, uint32_t box_h,
         CUtensorMapSwizzle swizzle)
      : data(size_t(ld) * h) {
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x) data[y * ld + x] = value(int(x), int(y));
    const cuuint64_t dims[3] = {w, h, 1};
    const cuuint64_t strides[2] = {uint64_t(ld) * 2, uint64_t(ld) * 2 * h};
    const cuuint32_t box[3] = {box_w, box_h, 1};
    const cuuint32_t es[3] = {1, 1, 1};
    CHECK(emu::encode_tensor_map_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 3, data.data(), dims,
                                       strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  }
};

void tma_load_zero_fill_and_swizzle() {
  // A 64 x 16 box at (-8, 4) of a 20 x 10 tensor, 128B-swizzled at 1 KB.
  Tensor t(20, 10, 24, 64, 16, CU_TENSOR_MAP_SWIZZLE_128B);
  std::vector<uint16_t> smem(64 * 16);
  expect_ok(launch(1, 32, 4096, [&] {
    uint8_t* base = ptx::dynamic_smem();
    if (ptx::thread_index() == 0) {
      ptx::mbarrier_init(barrier(), 1);
      ptx::mbarrier_arrive_expect_tx(barrier(), 64 * 16 * 2);
      ptx::tma_load_3d(base + 1024, &t.map, barrier(), -8, 4, 0);
    }
    ptx::mbarrier_wait(barrier(), 0);
    if (ptx::thread_index() == 0) std::memcpy(smem.data(), base + 1024, smem.size() * 2);
  }));
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < 64; ++col) {
      const int x = col - 8, y = row + 4;
      const uint16_t want = x >= 0 && x < 20 && y < 10 ? Tensor::value(x, y) : 0;
      // 16-byte chunk c of row r lands at chunk c ^ (r % 8).
      const int at = row * 64 + (((col / 8) ^ (row % 8)) * 8) + col % 8;
      CHECK(smem[at] == want);
    }
  }
  // The wrong byte count: the phase never completes.
  expect_report(launch(1, 32, 4096,
                       [&] {
                         if (ptx::thread_index() == 0) {
                           ptx::mbarrier_init(barrier(), 1);
                           ptx::mbarrier_arrive_expect_tx(barrier(), 64 * 16 * 2 + 2);
                           ptx::tma_load_3d(ptx::dynamic_smem() + 1024, &t.map, barrier(), 0, 0, 0);
                           ptx::mbarrier_wait(barrier(), 0);
                         }
                       }),
                "tx 2");
  // A box starting off a 16-byte boundary of the innermost dimension (an
  // illegal instruction on an H100), even inside the tensor.
  expect_report(launch(1, 32, 4096,
                       [&] {
                         if (ptx::thread_index() == 0) {
                           ptx::mbarrier_init(barrier(), 1);
                           ptx::mbarrier_arrive_expect_tx(barrier(), 64 * 16 * 2);
                           ptx::tma_load_3d(ptx::dynamic_smem() + 1024, &t.map, barrier(), 3, 0, 0);
                         }
                       }),
                "not on a 16-byte boundary");
}

// A 2-CTA load into CTA 1 completes on CTA 0's barrier: CTA 0 may not leave
// while it is in flight, though none of the load's bytes land in CTA 0.
void tma_2cta_load_holds_the_barriers_cta() {
  Tensor t(64, 16, 64, 64, 16, CU_TENSOR_MAP_SWIZZLE_128B);
  expect_report(launch(2, 32, 4096,
                       [&] {
                         const uint32_t rank = ptx::cluster_cta_rank();
                         if (ptx::thread_index() == 0 && rank == 0) {
                           ptx::mbarrier_init(barrier(0), 1);
                           ptx::mbarrier_arrive_expect_tx(barrier(0), 64 * 16 * 2);
                           ptx::mbarrier_init(barrier(1), 1);
                           ptx::fence_mbarrier_init();
                         }
                         ptx::cluster_sync();
                         if (rank == 1 && ptx::thread_index() == 0) {
                           ptx::tma_load_3d_2cta(ptx::dynamic_smem() + 1024, &t.map, barrier(0), 0,
                                                 0, 0, 0);
                           // Tell CTA 0 the load is issued (not that it completed).
                           ptx::mbarrier_arrive_cluster(barrier(1), 0);
                         }
                         if (rank == 0) ptx::mbarrier_wait(barrier(1), 0);
                         if (rank == 1) ptx::cluster_sync();  // outlives CTA 0
                       }),
                "CTA 0 exited with asynchronous operations");
}

void tma_store_clipping() {
  // Width 41 of a row of 64: the store writes through element 47 (the next
  // 16-byte boundary) and no further; rows past the height are skipped.
  Tensor t(41, 4, 64, 64, 8, CU_TENSOR_MAP_SWIZZLE_NONE);
  const std::vector<uint16_t> before = t.data;
  expect_ok(launch(1, 32, 4096, [&] {
    uint16_t* staged = reinterpret_cast<uint16_t*>(ptx::dynamic_smem() + 1024);
    for (uint32_t i = ptx::thread_index(); i < 64 * 8; i += 32) staged[i] = uint16_t(50000 + i);
    ptx::fence_proxy_async_smem();
    ptx::sync_warp();
    if (ptx::thread_index() == 0) {
      ptx::tma_store_3d(&t.map, staged, 0, 0, 0);
      ptx::tma_store_commit();
      ptx::tma_store_wait<0>();
    }
  }));
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 64; ++x) {
      const uint16_t got = t.data[size_t(y) * 64 + x];
      CHECK(got == (x < 48 ? uint16_t(50000 + y * 64 + x) : before[size_t(y) * 64 + x]));
    }
  }
  // Overwriting the source before wait_group.read.
  expect_report(launch(1, 32, 4096,
                       [&] {
                         if (ptx::thread_index() != 0) return;
                         uint8_t* staged = ptx::dynamic_smem() + 1024;
                         ptx::tma_store_3d(&t.map, staged, 0, 0, 0);
                         ptx::tma_store_commit();
                         staged[0] = 1;
                         ptx::tma_store_wait<0>();
                       }),
                "changed before the store read it");
}

// ---- wgmma ----------------------------------------------------------------------

// D[64 x 128] = A[64 x 16] B[16 x 128] through one m64n128k16 from
// K-major, 128B-swizzled tiles written by the threads; every thread checks
// its accumulator fragment against the documented layout.
void wgmma_fragments(bool trans_b) {
  auto a_val = [](int m, int k) { return float((m * 3 + k) % 7 - 3); };
  auto b_val = [](int k, int n) { return float((k * 5 + n) % 9 - 4); };
  int wrong = 0;
  expect_ok(launch(1, 128, 64 * 1024, [&] {
    uint8_t* base = ptx::dynamic_smem();
    uint8_t* a = base + 1024;
    uint8_t* b = base + 1024 + 8192;
    const uint32_t t = ptx::thread_index();
    auto put = [](uint8_t* tile, uint32_t row, uint32_t col, float v) {
      const __half h = __float2half(v);
      std::memcpy(tile + row * 128 + (((col * 2 / 16) ^ (row % 8)) * 16) + col * 2 % 16, &h, 2);
    };
    // A: 64 rows of 64 K (128 bytes); B: K-major 128 rows of 64 K, or
    // N-major: 16 K rows of 64 N, two 64-wide N blocks 1024 bytes apart.
    for (uint32_t i = t; i < 64 * 64; i += 128) put(a, i / 64, i % 64, a_val(i / 64, i % 64));
    for (uint32_t i = t; i < 128 * 64; i += 128) {
      const uint32_t n = i / 64, k = i % 64;
      if (!trans_b) put(b, n, k, b_val(k, n));
      if (trans_b && k < 16) put(b + (n / 64) * 8192, k, n % 64, b_val(k, n));
    }
    ptx::fence_proxy_async_smem();
    ptx::cta_sync();
    float d[64];
    for (float& v : d) v = 0.0f;
    const uint64_t da = encode_wgmma_desc({ptx::smem_address(a), 16, 1024, SmemSwizzle::B128});
    const uint64_t db =
        encode_wgmma_desc({ptx::smem_address(b), trans_b ? 8192u : 16u, 1024, SmemSwizzle::B128});
    ptx::wgmma_fence();
    if (trans_b) {
      ptx::Wgmma<128, ptx::Half16, false, true>::mma(d, da, db, false);
    } else {
      ptx::Wgmma<128, ptx::Half16, false, false>::mma(d, da, db, false);
    }
    ptx::wgmma_commit();
    ptx::wgmma_wait<0>();
    const uint32_t w = t / 32, l = t % 32;
    for (int j = 0; j < 16; ++j) {
      for (int e = 0; e < 4; ++e) {
        const int r = int(16 * w + l / 4) + (e >= 2 ? 8 : 0);
        const int c = 8 * j + 2 * int(l % 4) + (e & 1);
        float want = 0.0f;
        for (int k = 0; k < 16; ++k) want += a_val(r, k) * b_val(k, c);
        if (d[4 * j + e] != want) ++wrong;
      }
    }
  }));
  CHECK(wrong == 0);
}

// The same with A in registers (m64n256k16, K-major B): each thread packs its
// four A fragment registers by the documented layout; with one register
// written before the wait_group, the run must be reported.
void wgmma_register_a(bool write_before_wait) {
  auto a_val = [](int m, int k) { return float((m * 3 + k) % 7 - 3); };
  auto b_val = [](int k, int n) { return float((k * 5 + n) % 9 - 4); };
  int wrong = 0;
  const emu::RunResult run = launch(1, 128, 64 * 1024, [&] {
    uint8_t* b = ptx::dynamic_smem() + 1024;
    const uint32_t t = ptx::thread_index();
    for (uint32_t i = t; i < 256 * 64; i += 128) {
      const uint32_t n = i / 64, k = i % 64;
      const __half h = __float2half(b_val(int(k), int(n)));
      std::memcpy(b + n * 128 + (((k * 2 / 16) ^ (n % 8)) * 16) + k * 2 % 16, &h, 2);
    }
    ptx::fence_proxy_async_smem();
    ptx::cta_sync();
    const int r = int(16 * (t / 32) + t % 32 / 4), c = 2 * int(t % 4);
    uint32_t a[4];
    for (int i = 0; i < 4; ++i) {
      const int row = r + 8 * (i % 2), col = c + 8 * (i / 2);
      const __half lo = __float2half(a_val(row, col)), hi = __float2half(a_val(row, col + 1));
      uint16_t lo_bits, hi_bits;
      std::memcpy(&lo_bits, &lo, 2);
      std::memcpy(&hi_bits, &hi, 2);
      a[i] = uint32_t(lo_bits) | uint32_t(hi_bits) << 16;
    }
    float d[128] = {};
    ptx::wgmma_fence();
    ptx::WgmmaFromRegisters<256, ptx::Half16, false>::mma(
        d, a, encode_wgmma_desc({ptx::smem_address(b), 16, 1024, SmemSwizzle::B128}), false);
    ptx::wgmma_commit();
    if (write_before_wait) a[0] ^= 0x3c00;
    ptx::wgmma_wait<0>();
    for (int j = 0; j < 32; ++j) {
      for (int e = 0; e < 4; ++e) {
        const int row = r + (e >= 2 ? 8 : 0), col = 8 * j + c + (e & 1);
        float want = 0.0f;
        for (int k = 0; k < 16; ++k) want += a_val(row, k) * b_val(k, col);
        if (d[4 * j + e] != want) ++wrong;
      }
    }
  });
  if (write_before_wait) {
    expect_report(run, "A registers changed");
  } else {
    expect_ok(run);
    CHECK(wrong == 0);
  }
}

void wgmma_rules() {
  // An mma without the preceding fence.
  expect_report(launch(1, 128, 64 * 1024,
                       [] {
                         float d[64] = {};
                         const uint64_t desc =
                             encode_wgmma_desc({ptx::smem_address(ptx::dynamic_smem() + 1024), 16,
                                                1024, SmemSwizzle::B128});
                         ptx::Wgmma<128, ptx::Half16, false, false>::mma(d, desc, desc, false);
                       }),
                "not preceded by wgmma.fence");
  // Exiting with the group in flight.
  expect_report(launch(1, 128, 64 * 1024,
                       [] {
                         float d[64] = {};
                         const uint64_t desc =
                             encode_wgmma_desc({ptx::smem_address(ptx::dynamic_smem() + 1024), 16,
                                                1024, SmemSwizzle::B128});
                         ptx::wgmma_fence();
                         ptx::Wgmma<128, ptx::Half16, false, false>::mma(d, desc, desc, false);
                         ptx::wgmma_commit();
                       }),
                "in flight");
  // A descriptor whose rows do not start a swizzle pattern.
  expect_report(launch(1, 128, 64 * 1024,
                       [] {
                         float d[64] = {};
                         const uint64_t desc =
                             encode_wgmma_desc({ptx::smem_address(ptx::dynamic_smem() + 1024 + 128),
                                                16, 1024, SmemSwizzle::B128});
                         ptx::wgmma_fence();
                         ptx::Wgmma<128, ptx::Half16, false, false>::mma(d, desc, desc, false);
                         ptx::wgmma_commit();
                         ptx::wgmma_wait<0>();
                       }),
                "first row of a 128-byte swizzle pattern");
}

// ---- tcgen05 ----------------------------------------------------------------------

uint32_t* tmem_slot() { return reinterpret_cast<uint32_t*>(ptx::dynamic_smem() + 64); }

// Both CTAs: alloc (warp 0), publish, body(taddr), cluster sync, dealloc.
void with_tmem(uint32_t columns, const std::function<void(uint32_t)>& body) {
  if (ptx::warp_index() == 0) ptx::tmem_alloc<2>(tmem_slot(), columns);
  ptx::tcgen05_fence_before_sync();
  ptx::cta_sync();
  ptx::tcgen05_fence_after_sync();
  const uint32_t taddr = *tmem_slot();
  body(taddr);
  ptx::tcgen05_fence_before_sync();
  ptx::cluster_sync();
  if (ptx::warp_index() == 0) ptx::tmem_dealloc<2>(taddr, columns);
}

void tcgen05_allocation() {
  std::vector<uint32_t> slots(2, 99);
  expect_ok(launch(2, 128, 4096, [&] {
    with_tmem(256, [&](uint32_t taddr) {
      if (ptx::thread_index() == 0) slots[ptx::cluster_cta_rank()] = taddr;
    });
  }));
  CHECK(slots[0] == 0 && slots[1] == 0);
  expect_report(launch(2, 32, 4096, [] { ptx::tmem_alloc<2>(tmem_slot(), 64); }),
                "exited with Tensor Memory still allocated");
  expect_report(launch(2, 32, 4096, [] { ptx::tmem_alloc<2>(tmem_slot(), 48); }), "a power of 2");
  expect_report(launch(2, 32, 4096,
                       [] {
                         ptx::tmem_alloc<2>(tmem_slot(), 64);
                         ptx::tmem_alloc<2>(tmem_slot(), 128);
                       }),
                "must not increase");
  expect_report(launch(2, 32, 4096,
                       [] {
                         ptx::tmem_alloc<2>(tmem_slot(), 64);
                         ptx::tmem_relinquish<2>();
                         ptx::tmem_alloc<2>(tmem_slot(), 32);
                       }),
                "after tcgen05.relinquish_alloc_permit");
  // One CTA of the pair never allocates: the other waits for it forever.
  expect_report(launch(2, 32, 4096,
                       [] {
                         if (ptx::cluster_cta_rank() == 0) ptx::tmem_alloc<2>(tmem_slot(), 64);
                       }),
                "the peer CTA's warp has not performed it");
}

void tcgen05_load_lanes() {
  // Warp 1 may read lanes 32..63 only.
  expect_report(launch(2, 128, 4096,
                       [] {
                         with_tmem(32, [](uint32_t taddr) {
                           float v[32];
                           if (ptx::warp_index() == 1) {
                             ptx::tmem_load_32x32b<32>(taddr, v);
                             ptx::tmem_load_wait();
                           }
                         });
                       }),
                "of the warp 1 can only access lanes 32 to 63 but the instruction tried to access "
                "the lane 0");
  // Columns outside the allocation.
  expect_report(launch(2, 128, 4096,
                       [] {
                         with_tmem(32, [](uint32_t taddr) {
                           float v[32];
                           if (ptx::warp_index() == 0) ptx::tmem_load_32x32b<32>(taddr + 16, v);
                         });
                       }),
                "not allocated Tensor Memory");
  // Fresh TMEM reads as NaN.
  int nan_count = 0;
  expect_ok(launch(2, 128, 4096, [&] {
    with_tmem(64, [&](uint32_t taddr) {
      float v[64];
      ptx::tmem_load_32x32b<64>(taddr + ((32 * (ptx::warp_index() % 4)) << 16), v);
      ptx::tmem_load_wait();
      for (float x : v) nan_count += std::isnan(x);
    });
  }));
  CHECK(nan_count == 2 * 128 * 64);
}

// The 2-CTA MMA: D[256 x 64] = A[256 x 64] B[64 x 64]^T, each CTA holding
// 128 rows of A and 32 rows of B (K-major, 128B swizzle) at the same
// offsets; the even CTA's thread issues four K=16 steps and commits to both
// CTAs' barrier; every CTA's four warps read their 128 x 64 half back.
void tcgen05_two_cta_mma(bool fence_after_wait) {
  auto a_val = [](int m, int k) { return float((m + 2 * k) % 5 - 2); };
  auto b_val = [](int n, int k) { return float((3 * n + k) % 7 - 3); };
  int wrong = 0;
  const emu::RunResult r = launch(2, 128, 64 * 1024, [&] {
    uint8_t* base = ptx::dynamic_smem();
    uint8_t* a = base + 1024;
    uint8_t* b = base + 1024 + 16384;
    const uint32_t t = ptx::thread_index(), rank = ptx::cluster_cta_rank();
    auto put = [](uint8_t* tile, uint32_t row, uint32_t col, float v) {
      const __half h = __float2half(v);
      std::memcpy(tile + row * 128 + (((col * 2 / 16) ^ (row % 8)) * 16) + col * 2 % 16, &h, 2);
    };
    for (uint32_t i = t; i < 128 * 64; i += 128)
      put(a, i / 64, i % 64, a_val(int(rank * 128 + i / 64), int(i % 64)));
    for (uint32_t i = t; i < 32 * 64; i += 128)
      put(b, i / 64, i % 64, b_val(int(rank * 32 + i / 64), int(i % 64)));
    ptx::fence_proxy_async_smem();
    if (t == 0) {
      ptx::mbarrier_init(barrier(), 1);
      ptx::fence_mbarrier_init();
    }
    ptx::cluster_sync();
    with_tmem(64, [&](uint32_t taddr) {
      if (rank == 0 && t == 32) {
        const uint64_t da =
            encode_tcgen05_desc({ptx::smem_address(a), 16, 1024, SmemSwizzle::B128});
        const uint64_t db =
            encode_tcgen05_desc({ptx::smem_address(b), 16, 1024, SmemSwizzle::B128});
        for (uint32_t kk = 0; kk < 4; ++kk)
          ptx::umma_f16<2>(taddr, advance_desc(da, kk * 32), advance_desc(db, kk * 32),
                           0x10100010u /* f16 in, f32 acc, M=256, N=64 */, kk > 0);
        ptx::umma_commit_2cta(barrier(), 0b11);
      }
      ptx::mbarrier_wait(barrier(), 0);
      if (fence_after_wait) ptx::tcgen05_fence_after_sync();
      const uint32_t w = ptx::warp_index() % 4, lane = ptx::lane_index();
      float v[64];
      ptx::tmem_load_32x32b<64>(taddr + ((32 * w) << 16), v);
      ptx::tmem_load_wait();
      const int m = int(rank * 128 + 32 * w + lane);
      for (int n = 0; n < 64; ++n) {
        float want = 0.0f;
        for (int k = 0; k < 64; ++k) want += a_val(m, k) * b_val(n, k);
        if (v[n] != want) ++wrong;
      }
    });
  });
  if (fence_after_wait) {
    expect_ok(r);
    CHECK(wrong == 0);
  } else {
    expect_report(r, "without tcgen05.fence::after_thread_sync");
  }
}

void tcgen05_rules() {
  // The odd CTA issues a cta_group::2 MMA.
  expect_report(launch(2, 128, 64 * 1024,
                       [] {
                         with_tmem(64, [](uint32_t taddr) {
                           if (ptx::cluster_cta_rank() == 1 && ptx::thread_index() == 0) {
                             const uint64_t d =
                                 encode_tcgen05_desc({ptx::smem_address(ptx::dynamic_smem() + 1024),
                                                      16, 1024, SmemSwizzle::B128});
                             ptx::umma_f16<2>(taddr, d, d, 0x10100010u, false);
                           }
                         });
                       }),
                "issued by the odd CTA 1");
  // Deallocating while an MMA writing the TMEM is in flight (no commit
  // observed).
  expect_report(launch(2, 128, 64 * 1024,
                       [] {
                         with_tmem(64, [](uint32_t taddr) {
                           if (ptx::cluster_cta_rank() == 0 && ptx::thread_index() == 0) {
                             const uint64_t d =
                                 encode_tcgen05_desc({ptx::smem_address(ptx::dynamic_smem() + 1024),
                                                      16, 1024, SmemSwizzle::B128});
                             ptx::umma_f16<2>(taddr, d, d, 0x10100010u, false);
                           }
                         });
                       }),
                "still in flight");
  // A wgmma-style descriptor (bit 46 clear).
  expect_report(launch(2, 128, 64 * 1024,
                       [] {
                         with_tmem(64, [](uint32_t taddr) {
                           if (ptx::cluster_cta_rank() == 0 && ptx::thread_index() == 0) {
                             const uint64_t d =
                                 encode_wgmma_desc({ptx::smem_address(ptx::dynamic_smem() + 1024),
                                                    16, 1024, SmemSwizzle::B128});
                             ptx::umma_f16<2>(taddr, d, d, 0x10100010u, false);
                           }
                         });
                       }),
                "bits 46-48 must be 0b001");
}

// Commit arrivals are not ordered among themselves: having observed the
// later of two commits (with no MMA to track) says nothing of the earlier
// one, which in some random schedule is still in flight when the CTAs exit.
// Oldest first (seed 0) it has landed.
void tcgen05_commits_unordered() {
  const Body body = [] {
    const uint32_t rank = ptx::cluster_cta_rank();
    if (ptx::thread_index() == 0) {
      ptx::mbarrier_init(barrier(0), 1);
      ptx::mbarrier_init(barrier(1), 1);
      ptx::fence_mbarrier_init();
    }
    ptx::cluster_sync();
    if (rank == 0 && ptx::elect_one()) {
      ptx::umma_commit_2cta(barrier(0), 0b11);
      ptx::umma_commit_2cta(barrier(1), 0b11);
    }
    ptx::mbarrier_wait(barrier(1), 0);
    ptx::cluster_sync();
  };
  expect_ok(launch(2, 32, 4096, body));
  int early_exits = 0;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    const emu::RunResult r = launch(2, 32, 4096, body, seed);
    if (!r.ok) {
      expect_report(r, "exited with asynchronous operations on its shared memory or TMEM");
      ++early_exits;
    }
  }
  CHECK(early_exits > 0);
}

// Nothing the peer issued may still target a CTA that frees its TMEM or
// exits: here the even CTA's commit to both CTAs is never waited for.
void tcgen05_peer_commit_outlives_cta() {
  const auto commit_unobserved = [](bool with_tmem_alloc) {
    return [with_tmem_alloc] {
      if (ptx::thread_index() == 0) {
        ptx::mbarrier_init(barrier(), 1);
        ptx::fence_mbarrier_init();
      }
      ptx::cluster_sync();
      const auto commit = [] {
        if (ptx::cluster_cta_rank() == 0 && ptx::thread_index() == 0)
          ptx::umma_commit_2cta(barrier(), 0b11);
      };
      if (with_tmem_alloc) {
        with_tmem(32, [&](uint32_t) { commit(); });
      } else {
        commit();
        ptx::cluster_sync();
      }
    };
  };
  expect_report(launch(2, 32, 4096, commit_unobserved(true)),
                "tcgen05.dealloc while operations of another CTA still target CTA 1");
  expect_report(launch(2, 32, 4096, commit_unobserved(false)),
                "exited with asynchronous operations on its shared memory or TMEM in flight");
}

}  // namespace

int main() {
  const struct {
    const char* name;
    std::function<void()> run;
  } tests[] = {
      {"mbarrier phases and parity", mbarrier_phases},
      {"mbarrier arrive on an unobserved phase", mbarrier_unobserved_phase},
      {"mbarrier tx-count overflow", mbarrier_tx_overflow},
      {"mbarrier not initialised", mbarrier_uninitialised},
      {"remote arrive before the init is visible", mbarrier_remote_before_visible},
      {"deadlock report", deadlock_report},
      {"bounded waits: time-out, plain waits, retries", bounded_waits},
      {"named barriers", named_barriers},
      {"cluster barrier arrive twice", cluster_barrier_twice},
      {"distributed shared memory (mapa)", distributed_shared_memory},
      {"elect, shuffle, exited lanes", warp_collectives},
      {"TMA load: zero fill, 128B swizzle, tx bytes", tma_load_zero_fill_and_swizzle},
      {"TMA 2-CTA load: its barrier's CTA stays", tma_2cta_load_holds_the_barriers_cta},
      {"TMA store: 16-byte clipping, source reuse", tma_store_clipping},
      {"wgmma fragments, K-major B", [] { wgmma_fragments(false); }},
      {"wgmma fragments, N-major B", [] { wgmma_fragments(true); }},
      {"wgmma rules", wgmma_rules},
      {"wgmma A from registers", [] { wgmma_register_a(false); }},
      {"wgmma A registers written before the wait", [] { wgmma_register_a(true); }},
      {"tcgen05 allocation rules", tcgen05_allocation},
      {"tcgen05.ld lanes and columns", tcgen05_load_lanes},
      {"tcgen05 2-CTA MMA, M=256", [] { tcgen05_two_cta_mma(true); }},
      {"tcgen05 ld without fence after the wait", [] { tcgen05_two_cta_mma(false); }},
      {"tcgen05 MMA rules", tcgen05_rules},
      {"tcgen05 commits land in any order", tcgen05_commits_unordered},
      {"tcgen05 peer's commit outlives a CTA", tcgen05_peer_commit_outlives_cta},
  };
  for (const auto& t : tests) {
    const int before = g_failures;
    std::printf("%s\n", t.name);
    t.run();
    if (g_failures != before) std::printf("  FAILED\n");
  }
  std::printf("%s\n", g_failures == 0 ? "all passed" : "FAILURES");
  return g_failures == 0 ? 0 : 1;
}
