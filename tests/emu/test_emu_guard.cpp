// SPDX-License-Identifier: MIT
// The sm100 family's guard under emulation (issue 5, item 4): its two
// defences must trip on a deliberately broken kernel.
//
//  1. Bounded waits: with an mbarrier that expects one arrival too many, a
//     phase never completes; every wait of the kernel is bounded, so the run
//     must end (no deadlock report) with GemmParams::error_flag set, and the
//     error path must still leave the machine clean (no violation: TMEM freed,
//     nothing in flight). A correct run leaves the flag at 0 and times
//     nothing out.
//  2. The self-check (run_self_check, the code the guard runs on a GPU's
//     first use) over an emulator backend that mirrors the GPU backend of
//     dispatch/gpu_self_check.cpp: it passes for the correct kernel in every
//     configuration and fails for each injected fault, and a wrong value in
//     the kernel's result fails its comparison.
//  3. The same self-check of the sm90 family (which the guard test of a
//     Hopper GPU guards): every configuration on the cases it takes.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dispatch/self_check.h"
#include "emu_runner.h"
#include "kernels/kernel_family.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/variants.h"

using namespace bwgemm;
using namespace bwgemm::emu_test;

namespace bwgemm::sm90 {
extern const KernelFamily kFamily;
}
namespace bwgemm::sm100 {
extern const KernelFamily kFamily;
}

namespace {

int g_failures = 0;

void fail(const std::string& what) {
  std::printf("  FAIL: %s\n", what.c_str());
  ++g_failures;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The first line of an emulator report.
std::string headline(const std::string& report) { return report.substr(0, report.find('\n')); }

// mbarrier_init order in every CTA of the sm100 kernel: full[s], empty[s]
// for s = 0..5, then tmem_full[a], tmem_empty[a] for a = 0, 1.
constexpr int kFull0 = 0, kEmpty0 = 1, kTmemFull0 = 12, kTmemEmpty0 = 13;

emu::Faults one_arrival_too_many(int init_index) {
  emu::Faults f;
  f.init_index = init_index;
  f.arrival_delta = 1;
  return f;
}

// ---- 1. the bounded waits ------------------------------------------------------

void bounded_waits() {
  // Six 256 x 256 tiles on two clusters: each cluster's MMA thread reuses
  // accumulator 0 for its third tile, and each stage is reused.
  GemmCase c;
  c.m = 300;
  c.n = 520;
  c.k = 200;
  const HostGemm g(c, 7);

  std::printf("correct kernel\n");
  const EmuOutcome clean = run_sm100(g, emu::Options{});
  if (!clean.run.ok) fail("the emulator reported:\n" + clean.run.report);
  if (clean.error_flag != 0) fail("the error flag is set");
  if (clean.run.timeouts != 0) fail("a bounded wait timed out");
  if (clean.launched && !g.check(clean.c.data()).empty()) fail("wrong result");

  const struct {
    const char* name;
    int init_index;
  } faults[] = {
      {"full[0] expects one arrival too many (the MMA thread's first wait)", kFull0},
      {"empty[0] expects one arrival too many (the producer, on reusing stage 0)", kEmpty0},
      {"tmem_full[0] expects one arrival too many (the epilogues' first wait)", kTmemFull0},
      {"tmem_empty[0] expects one arrival too many (the MMA thread, third tile)", kTmemEmpty0},
  };
  for (const auto& f : faults) {
    // The deterministic schedule, and random interleavings in which the roles
    // reach their waits (and the final cluster barrier) in other orders.
    for (uint64_t seed : {0, 1, 2}) {
      std::printf("%s, seed %llu\n", f.name, static_cast<unsigned long long>(seed));
      emu::Options o;
      o.seed = seed;
      o.faults = one_arrival_too_many(f.init_index);
      const EmuOutcome out = run_sm100(g, o);
      std::printf("  error flag %u, %llu bounded waits timed out%s\n", out.error_flag,
                  static_cast<unsigned long long>(out.run.timeouts),
                  out.run.ok ? ", no report" : "");
      if (!out.run.ok) fail("the emulator reported:\n" + out.run.report);
      if (out.error_flag != 1) fail("the error flag is not set");
      if (out.run.timeouts == 0) fail("no bounded wait timed out");
    }
  }
}

// ---- 2. the self-check -----------------------------------------------------------

// dispatch/gpu_self_check.cpp's operand values: -2..2 from the position, exact in fp16 and
// bf16, and every sum of products (k <= 264) exact in fp32.
float operand_value(int64_t i, int64_t j, int salt) {
  return float(int((i * 7 + j * 13 + salt) % 5) - 2);
}

uint16_t encode(DType t, float v) {
  uint16_t bits;
  if (t == DType::F16) {
    const __half h = __float2half_rn(v);
    std::memcpy(&bits, &h, 2);
  } else {
    const __nv_bfloat16 b = __float2bfloat16_rn(v);
    std::memcpy(&bits, &b, 2);
  }
  return bits;
}

float decode(DType t, const uint8_t* p) {
  if (t == DType::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (t == DType::F16) {
    __half h;
    std::memcpy(&h, p, 2);
    return __half2float(h);
  }
  __nv_bfloat16 b;
  std::memcpy(&b, p, 2);
  return __bfloat162float(b);
}

// The value v as a result of type t holds it (v rounded once).
float rounded(DType t, double v) {
  if (t == DType::F32) return float(v);
  const uint16_t bits = encode(t, float(v));
  return decode(t, reinterpret_cast<const uint8_t*>(&bits));
}

// Runs the self-check cases as dispatch/gpu_self_check.cpp's GPU backend does, with the
// virtual GPU for the device and an fp64 product on the host for cuBLAS.
class EmuBackend {
 public:
  // The sm100 family by default; the sm90 family where the guard test of a
  // Hopper GPU makes it guarded (tests/gpu/guard).
  explicit EmuBackend(const emu::Options& options, const KernelFamily& family = sm100::kFamily)
      : options_(options), family_(family) {}

  SelfCheckBackend backend() {
    return {this, family_.config_count, family_.config_name, takes, run_kernel, run_reference};
  }
  // The index-pattern case's operands instead of the small integers.
  void use_index_pattern() { index_pattern_ = true; }
  // What the last kernel run ended with, for the log.
  const std::string& outcome() const { return outcome_; }

  static bool takes(void* self, const SelfCheckCase& c, int config) {
    const EmuBackend& emu = *static_cast<EmuBackend*>(self);
    return self_check_takes(emu.family_, emu.caps(), c, config);
  }

  static bool run_kernel(void* self, const SelfCheckCase& c, int config, float* out) {
    return static_cast<EmuBackend*>(self)->kernel(c, config, out);
  }

  static bool run_reference(void*, const SelfCheckCase& c, float* out) {
    for (int64_t j = 0; j < c.n; ++j) {
      for (int64_t i = 0; i < c.m; ++i) {
        double sum = 0;
        for (int64_t l = 0; l < c.k; ++l) {
          const float a = c.trans_a ? operand_value(l, i, 1) : operand_value(i, l, 1);
          const float b = c.trans_b ? operand_value(j, l, 2) : operand_value(l, j, 2);
          sum += double(a) * double(b);
        }
        out[i + j * c.m] = rounded(c.out, sum);
      }
    }
    return true;
  }

 private:
  std::vector<uint16_t> operand(DType t, int64_t rows, int64_t cols, int64_t ld, int salt) const {
    std::vector<uint16_t> v(size_t(ld * cols), encode(t, 0.0f));
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i)
        v[size_t(i + j * ld)] = encode(t, !index_pattern_ ? operand_value(i, j, salt)
                                          : salt == 1     ? index_pattern_a(i, j)
                                                          : index_pattern_b(i, j));
    return v;
  }

  DeviceCaps caps() const {
    return {0, family_.path == BWGEMM_PATH_SM90 ? 9 : 10, 0, int(options_.sm_count), 232448};
  }

  bool kernel(const SelfCheckCase& c, int config, float* out) {
    GemmProblem p = self_check_problem(c, nullptr, nullptr, nullptr);
    const std::vector<uint16_t> a =
        operand(c.ab, c.trans_a ? c.k : c.m, c.trans_a ? c.m : c.k, p.lda, 1);
    const std::vector<uint16_t> b =
        operand(c.ab, c.trans_b ? c.n : c.k, c.trans_b ? c.k : c.n, p.ldb, 2);
    // NaN in every output type: an element the kernel does not write fails.
    std::vector<uint8_t> d(size_t(p.ldc * c.n) * dtype_size(c.out), 0xff);
    p.a = a.data();
    p.b = b.data();
    p.c = p.d = d.data();
    uint32_t error_flag = 0;
    emu::set_device_options(options_);
    const bool enqueued =
        family_.launch(p, caps(), config, {&error_flag, 1}).status == LaunchStatus::kEnqueued;
    const emu::RunResult& run = emu::last_run();
    outcome_ = !run.ok           ? headline(run.report)
               : error_flag != 0 ? "error flag set"
               : !enqueued       ? "enqueue failed"
                                 : "ran cleanly";
    if (run.ok && error_flag != 0) {
      outcome_ += ", " + std::to_string(run.timeouts) + " bounded waits timed out";
    }
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i)
        out[i + j * c.m] = decode(c.out, &d[size_t(i + j * p.ldc) * dtype_size(c.out)]);
    return enqueued && run.ok && error_flag == 0;
  }

  emu::Options options_;
  const KernelFamily& family_;
  std::string outcome_;
  bool index_pattern_ = false;
};

void self_check() {
  std::printf("self-check, correct kernel\n");
  const auto t0 = std::chrono::steady_clock::now();
  EmuBackend clean(emu::Options{});
  std::string failure;
  if (!run_self_check(clean.backend(), &failure)) fail("it failed: " + failure);
  std::printf("  %d cases passed in each of %d configurations (%.1f s)\n", self_check_case_count(),
              sm100::kConfigCount, seconds_since(t0));

  // The index pattern through each configuration: every element in its place.
  EmuBackend index(emu::Options{});
  index.use_index_pattern();
  const SelfCheckCase pattern = index_pattern_case();
  for (int config = 0; config < sm100::kConfigCount; ++config) {
    std::printf("self-check's index pattern on %s, correct kernel\n", sm100::config_name(config));
    std::vector<float> placed(size_t(pattern.m) * pattern.n);
    if (!EmuBackend::run_kernel(&index, pattern, config, placed.data()))
      fail("the index-pattern run failed: " + index.outcome());
    else if (!check_index_pattern(placed.data(), &failure))
      fail(failure);
  }

  emu::Options lane, swizzle, arrivals;
  lane.faults.tmem_ld_lane_offset = 32;
  swizzle.faults.desc_swizzle_xor = 6;
  arrivals.faults = one_arrival_too_many(kTmemEmpty0);
  const struct {
    const char* name;
    emu::Options options;
  } faults[] = {
      {"tcgen05.ld from the next warp's TMEM lanes", lane},
      {"UMMA descriptors say 64B swizzle instead of 128B", swizzle},
      {"tmem_empty[0] expects one arrival too many (a bounded wait times out)", arrivals},
  };
  for (const auto& f : faults) {
    std::printf("self-check, %s\n", f.name);
    EmuBackend broken(f.options);
    failure.clear();
    const bool passed = run_self_check(broken.backend(), &failure);
    std::printf("  kernel: %s\n  self-check: %s\n", broken.outcome().c_str(),
                passed ? "passed" : failure.c_str());
    if (passed) fail("the self-check passed");
    if (!passed && failure.empty()) fail("no failure message");
  }

  // The comparison itself: the correct kernel's result with one element
  // moved by a tenth of the largest magnitude, above every type's tolerance.
  std::printf("self-check, one wrong element in the kernel's result\n");
  const SelfCheckBackend wrong = {&clean,
                                  1,
                                  sm100::config_name,
                                  EmuBackend::takes,
                                  [](void* self, const SelfCheckCase& c, int config, float* out) {
                                    if (!EmuBackend::run_kernel(self, c, config, out)) return false;
                                    const size_t elements = size_t(c.m) * size_t(c.n);
                                    float largest = 0;
                                    for (size_t e = 0; e < elements; ++e)
                                      largest = std::fmax(largest, std::fabs(out[e]));
                                    out[elements / 2] += 0.1f * largest;
                                    return true;
                                  },
                                  EmuBackend::run_reference};
  failure.clear();
  const bool passed = run_self_check(wrong, &failure);
  std::printf("  self-check: %s\n", passed ? "passed" : failure.c_str());
  if (passed || failure.find("max error") == std::string::npos) fail("the comparison missed it");
}

// ---- 3. the self-check of the sm90 family ------------------------------------------

// On a Hopper GPU the guard test (tests/gpu/guard) puts the guard in front of
// the sm90 family, whose helper then checks each of its configurations on the
// cases it takes: the wgmma ones of every layout or of K-major tokens only,
// row windows on an N-major B, up to 32 tokens, and the decode kernel on the
// decode cases. Here the same check over the emulator: every configuration
// takes a case and computes it, and the index pattern comes out in place in
// each that takes it.
void sm90_self_check() {
  std::printf("self-check of the sm90 family, every configuration\n");
  const auto t0 = std::chrono::steady_clock::now();
  EmuBackend clean(emu::Options{}, sm90::kFamily);
  std::string failure;
  if (!run_self_check(clean.backend(), &failure)) fail("it failed: " + failure);
  std::printf("  passed (%.1f s)\n", seconds_since(t0));
  EmuBackend index(emu::Options{}, sm90::kFamily);
  index.use_index_pattern();
  const SelfCheckCase pattern = index_pattern_case();
  int placed_in = 0;
  for (int config = 0; config < sm90::kFamily.config_count; ++config) {
    if (!EmuBackend::takes(&index, pattern, config)) continue;
    std::vector<float> placed(size_t(pattern.m) * pattern.n);
    if (!EmuBackend::run_kernel(&index, pattern, config, placed.data()))
      fail(std::string("the index-pattern run failed on ") + sm90::kFamily.config_name(config) +
           ": " + index.outcome());
    else if (!check_index_pattern(placed.data(), &failure))
      fail(failure);
    else
      ++placed_in;
  }
  std::printf("  index pattern in place in %d configurations\n", placed_in);
  if (placed_in == 0) fail("no configuration took the index pattern");
}

}  // namespace

int main() {
  const auto t0 = std::chrono::steady_clock::now();
  bounded_waits();
  self_check();
  sm90_self_check();
  std::printf("%s (%.1f s)\n", g_failures == 0 ? "all passed" : "FAILURES", seconds_since(t0));
  return g_failures == 0 ? 0 : 1;
}
