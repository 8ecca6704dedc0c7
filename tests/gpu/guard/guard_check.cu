// SPDX-License-Identifier: MIT
// The guard that stands in front of the sm100 family (dispatch/family_guard),
// run on an sm_90 GPU in front of the sm90 family made guarded, so that its
// hardware side is exercised where a GPU is at hand:
//  1. the first call on the device goes to cuBLAS while the helper process
//     (the bwgemm-self-check of this build) runs the real self-check (the
//     sm90 kernel against cuBLAS and the index pattern); once it passed,
//     calls launch; a graph capture in global mode on another thread during
//     the first call and during the one that takes the verdict survives;
//  2. a kernel that trips the error flag (as a failed bounded wait does) is
//     named in the log with its call's shape and stream; the next call on
//     another stream is forwarded (kFailed), not failed;
//  3. on the tripping call's own stream the next call gets kProtocolFailure;
//  4. a call captured in a CUDA graph whose replay trips the flag is named as
//     that captured call;
//  5. after cudaDeviceReset (which frees the flag with its context) the next
//     call checks the device again and launches (before: a read of freed
//     memory).
// Exit 77 (skipped) without an sm_90 GPU.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "../support/check.h"
#include "core/device_caps.h"
#include "core/env_config.h"
#include "dispatch/family_guard.h"
#include "dispatch/helper_check.h"

namespace bwgemm::sm90 {
extern const KernelFamily kFamily;
}

namespace {

using namespace bwgemm;

int g_failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++g_failures;
}

// What a kernel whose bounded wait gave up does with its flag.
__global__ void trip(ErrorFlag flag) { *static_cast<volatile uint32_t*>(flag.word) = flag.tag; }

struct Buffers {
  void* a = nullptr;
  void* b = nullptr;
  void* c = nullptr;
  cudaStream_t s1 = nullptr, s2 = nullptr;

  void make() {
    CUDA_OK(cudaMalloc(&a, 512 * 512 * sizeof(__half)));
    CUDA_OK(cudaMalloc(&b, 512 * 512 * sizeof(__half)));
    CUDA_OK(cudaMalloc(&c, 512 * 512 * sizeof(__half)));
    CUDA_OK(cudaMemset(a, 0, 512 * 512 * sizeof(__half)));
    CUDA_OK(cudaMemset(b, 0, 512 * 512 * sizeof(__half)));
    CUDA_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  }
};

GemmProblem problem(const Buffers& buf, int64_t m, int64_t n, int64_t k, cudaStream_t s) {
  GemmProblem p{};
  p.ab_type = DType::F16;
  p.c_type = DType::F16;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = buf.a;
  p.b = buf.b;
  p.c = p.d = buf.c;
  p.lda = m;
  p.ldb = k;
  p.ldc = p.ldd = m;
  p.batch = 1;
  p.alpha = {false, 1.0f, nullptr};
  p.beta = {false, 0.0f, nullptr};
  p.stream = s;
  return p;
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Calls until the helper answered (at most two minutes).
GuardDecision first_decision(const KernelFamily& family, const DeviceCaps& caps,
                             const GemmProblem& p, ErrorFlag* flag) {
  GuardDecision d = GuardDecision::kPending;
  for (int i = 0; i < 1200 && d == GuardDecision::kPending; ++i) {
    d = guard_launch(family, caps, p, flag);
    if (d == GuardDecision::kPending) usleep(100000);
  }
  return d;
}

// Runs `call` on this thread while another thread holds a graph capture in
// global mode on `s`; true when that capture ended intact.
template <class Call>
bool capture_survives(cudaStream_t s, Call call) {
  std::atomic<int> step{0};
  bool intact = false;
  std::thread capturer([&] {
    if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return;
    step = 1;
    while (step != 2) std::this_thread::yield();
    cudaGraph_t graph = nullptr;
    intact = cudaStreamEndCapture(s, &graph) == cudaSuccess && graph != nullptr;
    if (graph != nullptr) cudaGraphDestroy(graph);
  });
  while (step == 0) std::this_thread::yield();
  call();
  step = 2;
  capturer.join();
  cudaGetLastError();
  return intact;
}

std::string pointer(const void* p) {
  char s[32];
  std::snprintf(s, sizeof s, "%p", p);
  return s;
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
  if (prop.major != 9) {
    std::printf("SKIP: %s is sm_%d%d; the guarded sm90 family needs an sm_90 GPU\n", prop.name,
                prop.major, prop.minor);
    return 77;
  }
  char log_path[] = "/tmp/bwgemm-guard-check-XXXXXX";
  const int fd = mkstemp(log_path);
  if (fd < 0) return 1;
  close(fd);
  char cache_dir[] = "/tmp/bwgemm-guard-cache-XXXXXX";
  if (mkdtemp(cache_dir) == nullptr) return 1;
  setenv("BWGEMM_LOG_FILE", log_path, 1);
  setenv("XDG_CACHE_HOME", cache_dir, 1);
  env_config_reload();
  set_helper_for_tests(BWGEMM_TEST_HELPER, 120);

  KernelFamily guarded = sm90::kFamily;
  guarded.guarded = true;
  DeviceCaps caps;
  Buffers buf;
  buf.make();
  if (!current_device_caps(&caps)) return 1;
  ErrorFlag flag{}, other{};

  // 1. The real self-check, then a launch.
  GemmProblem p = problem(buf, 512, 512, 512, buf.s1);
  GuardDecision first = GuardDecision::kFailed;
  expect(capture_survives(buf.s2, [&] { first = guard_launch(guarded, caps, p, &flag); }),
         "a capture on another thread survives the first call (it starts the helper)");
  expect(first == GuardDecision::kPending,
         "first call: cuBLAS computes it while the helper checks the device");
  GuardDecision decided = GuardDecision::kFailed;
  expect(capture_survives(buf.s2, [&] { decided = first_decision(guarded, caps, p, &flag); }),
         "a capture on another thread survives the call that takes the verdict (it allocates "
         "the error flag)");
  expect(decided == GuardDecision::kLaunch,
         "the helper's self-check passed on the GPU and calls launch");
  expect(flag.word != nullptr && flag.tag != 0, "the launch gets the device's flag and a tag");
  expect(guarded.launch(p, caps, guarded.choose_config(p, caps, true).config, flag).status ==
             LaunchStatus::kEnqueued,
         "the kernel is enqueued with the flag");
  CUDA_OK(cudaStreamSynchronize(buf.s1));
  expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "a kernel that did not trip leaves the device on");

  // 2. A call on s2 trips; the next call, on s1, is forwarded.
  expect(guard_launch(guarded, caps, problem(buf, 384, 256, 128, buf.s2), &other) ==
             GuardDecision::kLaunch,
         "the call on s2 launches");
  trip<<<1, 1, 0, buf.s2>>>(other);
  CUDA_OK(cudaStreamSynchronize(buf.s2));
  expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kFailed,
         "after s2's call tripped the flag, a call on s1 goes to cuBLAS (kFailed)");
  expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kFailed,
         "and so do the calls after it");
  std::string log = read_file(log_path);
  expect(contains(log, "m=384 n=256 k=128") && contains(log, "on stream " + pointer(buf.s2)),
         "the log names the tripping call's shape and stream");

  // 3. On the tripping call's own stream: kProtocolFailure.
  family_guard_reset();
  expect(first_decision(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "(state reset) the cached verdict is used, launches");
  trip<<<1, 1, 0, buf.s1>>>(flag);
  CUDA_OK(cudaStreamSynchronize(buf.s1));
  expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kProtocolFailure,
         "the next call on the tripping call's stream gets kProtocolFailure");

  // 4. A graph replay trips the flag: named as its captured call.
  family_guard_reset();
  expect(first_decision(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "(state reset) the cached verdict is used, launches");
  GemmProblem captured = problem(buf, 256, 512, 64, buf.s2);
  CUDA_OK(cudaStreamBeginCapture(buf.s2, cudaStreamCaptureModeGlobal));
  const GuardDecision in_capture = guard_launch(guarded, caps, captured, &other);
  const bool enqueued =
      in_capture == GuardDecision::kLaunch &&
      guarded.launch(captured, caps, guarded.choose_config(captured, caps, true).config, other)
              .status == LaunchStatus::kEnqueued;
  if (in_capture == GuardDecision::kLaunch) trip<<<1, 1, 0, buf.s2>>>(other);
  cudaGraph_t graph;
  CUDA_OK(cudaStreamEndCapture(buf.s2, &graph));
  expect(enqueued, "a call inside a capture launches (the device was checked before)");
  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 20; ++i)
    expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kLaunch,
           "direct calls after the capture launch");
  CUDA_OK(cudaGraphLaunch(exec, buf.s2));
  CUDA_OK(cudaStreamSynchronize(buf.s2));
  expect(guard_launch(guarded, caps, problem(buf, 8, 8, 8, buf.s2), &flag) ==
             GuardDecision::kProtocolFailure,
         "after the replay tripped the flag, the next call on the graph's stream fails");
  log = read_file(log_path);
  expect(contains(log, "m=256 n=512 k=64") && contains(log, "captured in a CUDA graph"),
         "the log names the captured call");
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));

  // 5. A device reset frees the flag with its context.
  family_guard_reset();
  expect(first_decision(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "(state reset) the cached verdict is used, launches");
  CUDA_OK(cudaDeviceReset());
  buf = Buffers{};
  buf.make();
  // Every call reads the device's caps, its new context among them: after
  // the program's own runtime calls have made that context (read before, the
  // id is 0, and the guard leaves the call to cuBLAS, which makes it).
  if (!current_device_caps(&caps)) return 1;
  expect(caps.context_id != 0, "the caps read after the buffers carry the new context");
  p = problem(buf, 512, 512, 512, buf.s1);
  expect(first_decision(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "after cudaDeviceReset the device is checked again in its new context and launches");
  expect(guarded.launch(p, caps, guarded.choose_config(p, caps, true).config, flag).status ==
             LaunchStatus::kEnqueued,
         "and the kernel is enqueued there (its launch attributes set again)");
  CUDA_OK(cudaStreamSynchronize(buf.s1));
  expect(guard_launch(guarded, caps, p, &flag) == GuardDecision::kLaunch,
         "the new flag is untripped");

  log = read_file(log_path);
  std::printf("--- log ---\n%s--- end ---\n", log.c_str());
  expect(!contains(log, "failed"), "no check failed");
  unlink(log_path);
  std::printf(g_failures == 0 ? "all passed\n" : "%d FAILED\n", g_failures);
  return g_failures == 0 ? 0 : 1;
}
