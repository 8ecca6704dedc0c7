// SPDX-License-Identifier: MIT
// The kernels' bounded barrier wait (ptx::mbarrier_wait_bounded) on a GPU:
// a kernel waits on a phase that never completes and measures, with the
// GPU's clock, how long the wait takes to give up; the host measures the
// whole launch. It must give up after its budget and not much later (the
// old wait, 2^22 polls, took 16.5 s on an H200), and a phase that does
// complete must still end the wait at once. Exit 77 (skipped) without an
// sm_90 or newer GPU.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../support/check.h"
#include "core/env_config.h"
#include "kernels/common/gemm_params.h"
#include "kernels/ptx/barrier.cuh"
#include "kernels/ptx/index.cuh"

namespace {

using namespace bwgemm;

struct Outcome {
  unsigned long long elapsed_ns;
  unsigned completed;
};

// Thread 0 waits on a barrier expecting two arrivals; warp 1 gives them
// after `arrive_after_ns`, or never when it is 0.
__global__ void wait_on_barrier(uint64_t budget_ns, uint64_t arrive_after_ns, Outcome* out) {
  __shared__ ptx::Mbarrier bar;
  const uint32_t t = ptx::thread_index();
  if (t == 0) {
    ptx::mbarrier_init(&bar, 2);
    ptx::fence_mbarrier_init();
  }
  ptx::cta_sync();
  if (t == 0) {
    const uint64_t start = ptx::global_timer_ns();
    const bool completed = ptx::mbarrier_wait_bounded(&bar, 0, budget_ns);
    out->elapsed_ns = ptx::global_timer_ns() - start;
    out->completed = completed;
  } else if (t == 32 && arrive_after_ns > 0) {
    const uint64_t start = ptx::global_timer_ns();
    while (ptx::global_timer_ns() - start < arrive_after_ns) {
    }
    ptx::mbarrier_arrive(&bar);
    ptx::mbarrier_arrive(&bar);
  }
}

int g_failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++g_failures;
  }
}

// One launch; prints and returns what the device and the host measured.
Outcome run(Outcome* device_out, uint64_t budget_ns, uint64_t arrive_after_ns, double* host_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  wait_on_barrier<<<1, 64>>>(budget_ns, arrive_after_ns, device_out);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  *host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Outcome o;
  CUDA_OK(cudaMemcpy(&o, device_out, sizeof o, cudaMemcpyDeviceToHost));
  std::printf(
      "budget %9.3f ms, arrivals %s: %s after %9.3f ms (GPU clock), launch %9.3f ms (host)\n",
      budget_ns / 1e6, arrive_after_ns > 0 ? "after the wait began" : "never",
      o.completed ? "completed" : "gave up", o.elapsed_ns / 1e6, *host_ms);
  return o;
}

}  // namespace

int main() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("SKIP: no GPU (%s)\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return 77;
  }
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major < 9) {
    std::printf("SKIP: %s is sm_%d%d; the wait needs sm_90 or newer\n", prop.name, prop.major,
                prop.minor);
    return 77;
  }
  std::printf("%s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  Outcome* out = nullptr;
  CUDA_OK(cudaMalloc(&out, sizeof(Outcome)));
  // Warm-up: module load and first launch are not the wait's time.
  double host_ms = 0;
  run(out, 1000000, 0, &host_ms);

  // A phase that never completes: gives up after the budget, within 5 ms
  // more on the GPU's clock (one last poll) and 250 ms more on the host's.
  const uint64_t library_default = wait_budget_ns(kDefaultWaitTimeoutMs, 0);
  for (const uint64_t budget : {uint64_t(1000000), uint64_t(10000000), library_default}) {
    const Outcome o = run(out, budget, 0, &host_ms);
    expect(!o.completed, "a phase that never completes ended the wait as completed");
    expect(o.elapsed_ns >= budget, "gave up before its budget");
    expect(o.elapsed_ns <= budget + 5000000, "gave up more than 5 ms after its budget");
    expect(host_ms <= budget / 1e6 + 250, "the launch took more than 250 ms past the budget");
  }
  // A phase completed 5 ms into a 100 ms budget ends the wait then.
  const Outcome o = run(out, 100000000, 5000000, &host_ms);
  expect(o.completed, "a phase that completed was reported as a time-out");
  expect(o.elapsed_ns >= 5000000 && o.elapsed_ns < 50000000,
         "the completed wait did not end about 5 ms after it began");

  CUDA_OK(cudaFree(out));
  std::printf(g_failures == 0 ? "all passed\n" : "%d FAILED\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
