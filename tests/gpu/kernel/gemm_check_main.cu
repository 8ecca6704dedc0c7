// SPDX-License-Identifier: MIT
// GPU tests of bwgemm's own kernel, forced through the public API.
//   gemm_check matrix            the fixed case matrix (also against cuBLAS)
//   gemm_check random [N] [SEED] N seeded random cases (seed printed)
//   gemm_check determinism       identical bits run to run
//   gemm_check graph             CUDA graph capture and replay
//   gemm_check threads           8 threads x 8 streams against serial results
//   gemm_check sanitizer         a small subset, for compute-sanitizer runs
//   gemm_check multigpu          one thread per GPU, all at once (exit 77 with < 2)
//   gemm_check one OPS M N K [LD_ALIGN] [OFFSET] [BF16] [F32]
//                                one fp16 (or bf16) case, e.g. "one NT 63 63 63 1 2"
#include <bwgemm/bwgemm.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gemm_cases.h"
#include "gpu_check.h"

namespace {

// BWGEMM_SM90_CONFIG, when a run forces a configuration by name.
const char* named_config() {
  const char* name = std::getenv("BWGEMM_SM90_CONFIG");
  return name != nullptr && name[0] != '\0' ? name : nullptr;
}

struct Tally {
  int cases = 0, kernel = 0, forwarded = 0, failed = 0, named = 0;

  void add(const GemmCase& c, const CaseResult& r, const char* what = "") {
    ++cases;
    if (r.path == BWGEMM_PATH_SM90) ++kernel;
    if (named_config() != nullptr && r.kernel == named_config()) ++named;
    if (r.path == BWGEMM_PATH_CUBLAS) ++forwarded;
    if (!r.ok) {
      if (++failed <= 20)
        std::printf("FAIL %s%s: %s\n", what, describe(c).c_str(), r.detail.c_str());
    }
  }

  // With a configuration named, some cases must have run on it (it runs
  // only the layouts it is compiled for; the others run configuration 0).
  int finish(const char* name) const {
    std::printf("%s: %d cases, %d on the sm90 kernel, %d forwarded, %d failed\n", name, cases,
                kernel, forwarded, failed);
    if (named_config() != nullptr) std::printf("%s: %d cases on %s\n", name, named, named_config());
    const bool named_ran = named_config() == nullptr || named > 0 || kernel == 0;
    return failed == 0 && cases > 0 && named_ran ? 0 : 1;
  }
};

const Elem kTypes[2] = {Elem::F16, Elem::BF16};
const float kAlphaBeta[4][2] = {{1, 0}, {0.5f, 2}, {0, 1}, {-1, 0.25f}};

struct Shape {
  int64_t m, n, k;
};

std::vector<Shape> matrix_shapes() {
  std::vector<Shape> shapes;
  for (int64_t s : {1, 7, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1024, 2049})
    shapes.push_back({s, s, s});
  // 4096 x 16 (NN), 17 and 32 x 4096: decode on the split-K pair with its
  // 32-row stages where it is named (the policy gives them cuBLAS).
  const Shape mixed[] = {{65, 257, 129},   {1000, 7, 1024},  {7, 1000, 63},  {2049, 129, 64},
                         {129, 2049, 255}, {256, 1, 1000},   {1, 256, 7},    {1024, 65, 2049},
                         {257, 1024, 1},   {63, 64, 0},      {128, 129, 0},  {511, 513, 1000},
                         {4096, 16, 4096}, {1000, 33, 3000}, {300, 64, 777}, {4096, 17, 4096},
                         {4096, 32, 4096}};
  shapes.insert(shapes.end(), std::begin(mixed), std::end(mixed));
  return shapes;
}

// Row classes (src/kernels/common/gemm_params.h), with 2047 and 2048
// kernel rows (cuBLAS's n) so that every configuration that has them takes
// them: NN with B's leading dimension odd and D aligned (half of them with a
// NaN padding row in B, which must not reach D), TN with D's leading
// dimension odd and A and B aligned.
std::vector<GemmCase> class_cases() {
  std::vector<GemmCase> cases;
  int i = 0;
  for (Elem ab : kTypes)
    for (bool f32_out : {false, true})
      for (bool tn : {false, true})
        for (int64_t n : {2048, 2047}) {
          GemmCase c;
          c.ab = ab;
          c.c = f32_out ? Elem::F32 : ab;
          c.ta = tn;
          c.n = n;
          c.ld_align = 1;
          if (tn) {
            c.m = 1001 + 2 * i;
            c.k = 264;
          } else {
            c.m = 768;
            c.k = i % 2 ? 998 : 999 - 2 * i;
            c.pad_b = i % 2;
            c.nan_padding = true;
          }
          c.alpha = kAlphaBeta[i % 4][0];
          c.beta = kAlphaBeta[i % 4][1];
          c.device_scalars = i % 3 == 0;
          cases.push_back(c);
          ++i;
        }
  return cases;
}

// Ragged edges (src/kernels/common/ragged_edge.h): 4097 kernel rows
// (cuBLAS's n), whose last 256-row block holds one, run as a body and a
// remainder; 4097 columns (cuBLAS's m) run whole on 128-wide tiles. Every op,
// 16-byte and minimal leading dimensions (packed A or B, unaligned D; each
// op pair has both, one per type, in both orientations: NN 4095 x 4097's
// remainder then runs on the decode kernel from the packed A), beta != 0,
// fp32 output.
std::vector<GemmCase> edge_cases() {
  std::vector<GemmCase> cases;
  int i = 0;
  for (Elem ab : kTypes)
    for (int ops = 0; ops < 4; ++ops)
      for (bool wide : {false, true}) {
        GemmCase c;
        c.ab = ab;
        c.c = i % 3 == 2 ? Elem::F32 : ab;
        c.ta = ops & 1;
        c.tb = ops & 2;
        c.m = wide ? 4097 : 4095;
        c.n = wide ? 4095 : 4097;
        c.k = 2056;  // ragged edges are split from k = 2048 (kMinEdgeDepth)
        c.alpha = kAlphaBeta[i % 4][0] == 0 ? 1.0f : kAlphaBeta[i % 4][0];
        c.beta = kAlphaBeta[i % 4][1];
        c.device_scalars = i % 3 == 0;
        c.ld_align = (ops + int(ab == Elem::BF16)) % 2 ? 1 : 8;
        cases.push_back(c);
        ++i;
      }
  return cases;
}

// GPT-2's input gradient's shape, 768 x 8192 x k, on configuration 0's 256
// x 256 tiles: 96 of them, on 132 SMs (66 clusters) a second wave of 30.
// Variant 0: NN with B's leading dimension odd (read by row classes; NaN in
// B's padding); 1: the same with fp32 output; 2 and 3: TN with fp32 output
// (the forced kernel's configuration 0), A aligned or not. Case i's
// alpha, beta and scalar mode rotate.
GemmCase input_gradient_case(Elem ab, int variant, int i, int64_t k) {
  GemmCase c;
  c.ab = ab;
  c.c = variant == 0 ? ab : Elem::F32;
  c.ta = variant >= 2;
  c.m = 768;
  c.n = 8192;
  c.k = k;
  c.ld_align = variant == 2 ? 8 : 1;
  c.nan_padding = !c.ta;
  c.alpha = kAlphaBeta[i % 4][0] == 0 ? 1.0f : kAlphaBeta[i % 4][0];
  c.beta = kAlphaBeta[i % 4][1];
  c.device_scalars = i % 2;
  return c;
}

// Last waves split off (src/kernels/sm90/policy.h, split_last_wave): below
// k = 4096 (no split over K), cuBLAS's first 512 rows of D run on 256 x 256
// tiles and the other 256 on 256 x 128 tiles, a launch of their own; beta
// != 0, device scalars.
std::vector<GemmCase> last_wave_cases() {
  std::vector<GemmCase> cases;
  int i = 0;
  for (Elem ab : kTypes)
    for (int variant = 0; variant < 4; ++variant, ++i) {
      GemmCase c = input_gradient_case(ab, variant, i, 2049 + 2 * i);  // split from 2048; odd
      c.pad_b = c.ta ? 0 : 2 * ((i / 4) % 2);
      cases.push_back(c);
    }
  return cases;
}

// Last waves split over K (src/kernels/common/tile_split.h), where the
// stream's workspace holds the pieces' partials: at k >= 4096 the 30 tiles
// of the second wave run as two pieces each (only the first piece zeroes
// the row classes' heads); TN 512 x 2048 x 8192 makes 16 tiles, four pieces
// each.
std::vector<GemmCase> tile_split_cases() {
  std::vector<GemmCase> cases;
  int i = 0;
  for (Elem ab : kTypes) {
    for (int variant = 0; variant < 3; ++variant, ++i)
      cases.push_back(input_gradient_case(ab, variant, i, 8191 + 2 * i));
    GemmCase c = input_gradient_case(ab, 2, i++, 8192);
    c.c = ab;
    c.m = 512;
    c.n = 2048;
    cases.push_back(c);
  }
  return cases;
}

// Every (input type, output type, ops) combination over every shape; the
// remaining factors rotate so that each combination meets every value.
int run_matrix() {
  Tally ours, theirs;
  int spot_failures = 0;
  const std::vector<Shape> shapes = matrix_shapes();
  int combo = 0;
  for (Elem ab : kTypes)
    for (bool f32_out : {false, true})
      for (int ops = 0; ops < 4; ++ops, ++combo)
        for (size_t s = 0; s < shapes.size(); ++s) {
          GemmCase c;
          c.ab = ab;
          c.c = f32_out ? Elem::F32 : ab;
          c.ta = ops & 1;
          c.tb = ops & 2;
          c.m = shapes[s].m;
          c.n = shapes[s].n;
          c.k = shapes[s].k;
          const int rot = int(s) + combo;
          c.alpha = kAlphaBeta[rot % 4][0];
          c.beta = kAlphaBeta[rot % 4][1];
          c.device_scalars = (rot / 4) % 2;
          const int64_t pads[3] = {0, 8, 24};
          c.pad_a = pads[rot % 3];
          c.pad_b = pads[(rot + 1) % 3];
          c.pad_c = pads[(rot + 2) % 3];
          c.batch = rot % 2 ? 3 : 1;
          c.broadcast_a = c.batch > 1 && rot % 5 == 0;
          c.broadcast_b = c.batch > 1 && rot % 7 == 0;
          const uint64_t seed = 1000 + combo * 100 + s;
          ours.add(c, run_and_check(c, Runner::BwgemmForced, seed, nullptr));
          // cuBLAS as a second opinion: it must pass the same checker.
          theirs.add(c, run_and_check(c, Runner::RealCublas, seed, nullptr), "cuBLAS ");
          // The same case with minimal leading dimensions and bases 0..7
          // elements past 16 bytes: residue-class loads, stores by threads,
          // or forwarded where classes cannot load it (kernel_takes).
          GemmCase tight = c;
          tight.ld_align = 1;
          tight.pad_a = tight.pad_b = tight.pad_c = 0;
          tight.offset = rot % 8;
          ours.add(tight, run_and_check(tight, Runner::BwgemmForced, seed + 50, nullptr));
          std::string detail;
          if (c.m * c.n * c.k <= 257 * 257 * 257 && !spot_check_reference(c, seed, &detail)) {
            ++spot_failures;
            std::printf("FAIL reference %s: %s\n", describe(c).c_str(), detail.c_str());
          }
        }
  for (const GemmCase& c : class_cases())
    ours.add(c, run_and_check(c, Runner::BwgemmForced, 77, nullptr), "row classes ");
  for (const GemmCase& c : edge_cases())
    ours.add(c, run_and_check(c, Runner::BwgemmForced, 78, nullptr), "ragged edge ");
  for (const GemmCase& c : last_wave_cases())
    ours.add(c, run_and_check(c, Runner::BwgemmForced, 79, nullptr), "last wave ");
  for (const GemmCase& c : tile_split_cases())
    ours.add(c, run_and_check(c, Runner::BwgemmForced, 80, nullptr), "tile split ");
  const int a = ours.finish("matrix (bwgemm kernel forced)");
  const int b = theirs.finish("matrix (real cuBLAS, same checker)");
  std::printf("matrix: device fp64 reference spot-checked on the host, %d mismatches\n",
              spot_failures);
  return a | b | (spot_failures != 0);
}

int64_t pick_size(std::mt19937_64& rng, int64_t max) {
  switch (rng() % 3) {
    case 0: return 1 + int64_t(rng() % max);
    case 1: {  // just around a tile boundary
      const int64_t base = 64 * (1 + int64_t(rng() % (max / 64)));
      return std::max<int64_t>(1, base + int64_t(rng() % 3) - 1);
    }
    default: return 1 + int64_t(rng() % 64);
  }
}

int run_random(int count, uint64_t seed) {
  std::printf("random: %d cases, seed %llu (reproduce: gemm_check random %d %llu)\n", count,
              (unsigned long long)seed, count, (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  const float alphas[] = {1, 0.5f, -1, 0, 2.5f};
  const float betas[] = {0, 1, 0.25f, -2};
  const int64_t pads[] = {0, 0, 8, 16};
  Tally tally;
  for (int i = 0; i < count; ++i) {
    GemmCase c;
    c.ab = kTypes[rng() % 2];
    c.c = rng() % 2 ? Elem::F32 : c.ab;
    c.ta = rng() % 2;
    c.tb = rng() % 2;
    c.m = pick_size(rng, 700);
    c.n = pick_size(rng, 700);
    c.k = rng() % 10 == 0 ? 0 : pick_size(rng, 600);
    c.alpha = alphas[rng() % 5];
    c.beta = betas[rng() % 4];
    c.device_scalars = rng() % 2;
    c.ld_align = rng() % 3 == 0 ? 1 : 8;  // 1: usually not 16-byte rows
    c.offset = rng() % 6 == 0 ? 1 + int64_t(rng() % 7) : 0;
    c.pad_a = pads[rng() % 4];
    c.pad_b = pads[rng() % 4];
    c.pad_c = pads[rng() % 4];
    c.batch = 1 + int64_t(rng() % 3);
    c.broadcast_a = c.batch > 1 && rng() % 4 == 0;
    c.broadcast_b = c.batch > 1 && rng() % 4 == 0;
    // Every 8th case a decode step: TN or NN (m a multiple of 8), a few
    // tokens, K a multiple of 8.
    if (i % 8 == 7) {
      c.ta = i % 16 == 7;
      c.tb = false;
      if (!c.ta) c.m = 8 * ((c.m + 7) / 8);
      c.n = 1 + int64_t(rng() % 32);
      c.k = 8 * (1 + int64_t(rng() % 300));
    }
    tally.add(c, run_and_check(c, Runner::BwgemmForced, seed + uint64_t(i), nullptr));
  }
  return tally.finish("random");
}

std::vector<GemmCase> small_cases() {
  std::vector<GemmCase> cases;
  int i = 0;
  for (Elem ab : kTypes)
    for (int ops = 0; ops < 4; ++ops, ++i) {
      GemmCase c;
      c.ab = ab;
      c.c = i % 2 ? Elem::F32 : ab;
      c.ta = ops & 1;
      c.tb = ops & 2;
      c.m = 300 + 7 * i;
      c.n = 520 - 9 * i;
      c.k = 200 + 5 * i;
      c.alpha = kAlphaBeta[i % 4][0];
      c.beta = kAlphaBeta[i % 4][1];
      c.device_scalars = i % 3 == 0;
      c.pad_c = 8;
      c.batch = 1 + i % 2;
      cases.push_back(c);
      // Minimal leading dimensions and offset bases: the residue-class loads
      // and the epilogue's rotated rows (or cuBLAS, where classes cannot load).
      c.ld_align = 1;
      c.pad_c = 0;
      c.offset = 1 + i % 7;
      c.batch = 1;
      cases.push_back(c);
    }
  // Register windows (sm90_256x256x64_3stage_2cta_regwindows): NT, ldb odd,
  // A M-major and aligned, k a multiple of 8 but not of 64, beta != 0.
  GemmCase windows;
  windows.ab = Elem::BF16;
  windows.c = Elem::BF16;
  windows.tb = true;
  windows.m = 264;
  windows.n = 517;
  windows.k = 200;
  windows.beta = 0.5f;
  windows.ld_align = 1;
  cases.push_back(windows);
  // Decode steps (a few tokens): TN with 1 and 3 token blocks, beta != 0,
  // fp32 output, batches; NN (the weight contiguous along its rows) with a
  // partial 32-row group and 2 token blocks.
  for (int j = 0; j < 3; ++j) {
    GemmCase c;
    c.ab = j == 1 ? Elem::BF16 : Elem::F16;
    c.c = j == 1 ? Elem::F32 : c.ab;
    c.ta = j < 2;
    c.m = j < 2 ? 333 + 64 * j : 264;
    c.n = j == 0 ? 5 : j == 1 ? 20 : 9;
    c.k = 520 - 8 * j;
    c.beta = j ? 0.5f : 0.0f;
    c.batch = 1 + j % 2;
    cases.push_back(c);
  }
  return cases;
}

// Decode shapes (a few tokens against a weight, TN and NN, bf16 and fp16):
// what the split-K configurations are for; on 132 SMs the decode kernel runs
// 5120 and 6144 rows three CTAs an SM, and 1024 and 3072 rows in 8-row halves
// two and three an SM.
std::vector<GemmCase> decode_cases() {
  std::vector<GemmCase> cases;
  const int64_t shapes[][3] = {{4096, 16, 4096}, {4096, 1, 14336}, {2048, 64, 4096},
                               {4095, 8, 4101},  {5120, 8, 4096},  {1024, 4, 4096},
                               {3072, 8, 8192},  {6144, 1, 4096}};
  int i = 0;
  for (const auto& s : shapes) {
    GemmCase c;
    c.ab = i % 2 ? Elem::BF16 : Elem::F16;
    c.c = c.ab;
    c.ta = i != 1;
    c.m = s[0];
    c.n = s[1];
    c.k = s[2];
    c.beta = i == 2 ? 1.0f : 0.0f;
    cases.push_back(c);
    ++i;
  }
  return cases;
}

int run_determinism() {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate_v2(&handle));
  CUBLAS_OK(cublasSetStream_v2(handle, stream));
  int failed = 0, runs = 0;
  std::vector<GemmCase> cases = small_cases();
  GemmCase big;
  big.m = 2048;
  big.n = 3000;
  big.k = 4096;
  big.ta = true;
  cases.push_back(big);
  for (const GemmCase& d : decode_cases()) cases.push_back(d);
  // Whichever piece of a split tile arrives last adds them in piece order.
  for (const GemmCase& s : tile_split_cases()) cases.push_back(s);
  for (const GemmCase& c : cases) {
    const std::string first = run_and_fetch(c, 7, stream, handle);
    const std::string second = run_and_fetch(c, 7, stream, handle);
    ++runs;
    if (first != second) {
      ++failed;
      std::printf("FAIL determinism: %s differs between runs\n", describe(c).c_str());
    }
  }
  cublasDestroy_v2(handle);
  cudaStreamDestroy(stream);
  std::printf("determinism: %d cases run twice, %d differed\n", runs, failed);
  return failed != 0;
}

int run_graph() {
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate_v2(&handle));
  CUBLAS_OK(cublasSetStream_v2(handle, stream));
  int failed = 0, runs = 0;
  std::vector<GemmCase> cases = small_cases();
  for (const GemmCase& d : decode_cases()) cases.push_back(d);
  // A last wave split over K, on the captured graph's own room
  // (dispatch/workspace.h): the same bits as the eager split.
  cases.push_back(tile_split_cases().back());
  for (const GemmCase& c : cases) {
    std::printf("graph: %s\n", describe(c).c_str());
    std::fflush(stdout);
    // A captured call that needs a packed copy goes to cuBLAS (no workspace
    // inside a capture): its replay must equal cuBLAS's own result. Where
    // the kernel may read the unaligned B without a copy (row classes or row
    // windows), the capture may run the kernel: then it equals the eager
    // kernel's.
    const bool packed = needs_pack(c);
    const std::string eager =
        run_and_fetch(c, 11, stream, handle, packed ? Runner::RealCublas : Runner::BwgemmForced);
    const std::string graphed = run_in_graph_and_fetch(c, 11, 3);
    const bool uncopied = packed && (may_read_b_by_class(c) || may_read_b_by_windows(c));
    ++runs;
    if (eager != graphed &&
        !(uncopied && graphed == run_and_fetch(c, 11, stream, handle, Runner::BwgemmForced))) {
      ++failed;
      std::printf("FAIL graph: %s replay differs from the eager run\n", describe(c).c_str());
    }
  }
  cublasDestroy_v2(handle);
  cudaStreamDestroy(stream);
  std::printf("graph: %d cases captured and replayed, %d differed\n", runs, failed);
  return failed != 0;
}

int run_threads() {
  const std::vector<GemmCase> cases = small_cases();
  // Serial results first, on one stream.
  std::vector<std::string> serial;
  {
    cudaStream_t stream;
    CUDA_OK(cudaStreamCreate(&stream));
    cublasHandle_t handle;
    CUBLAS_OK(cublasCreate_v2(&handle));
    CUBLAS_OK(cublasSetStream_v2(handle, stream));
    for (const GemmCase& c : cases) serial.push_back(run_and_fetch(c, 21, stream, handle));
    cublasDestroy_v2(handle);
    cudaStreamDestroy(stream);
  }
  // Then 8 threads, each with its own handle and stream, all cases each.
  constexpr int kThreadCount = 8;
  std::vector<int> mismatches(kThreadCount, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadCount; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t stream;
      CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      cublasHandle_t handle;
      CUBLAS_OK(cublasCreate_v2(&handle));
      CUBLAS_OK(cublasSetStream_v2(handle, stream));
      for (size_t i = 0; i < cases.size(); ++i) {
        const size_t which = (i + t) % cases.size();
        if (run_and_fetch(cases[which], 21, stream, handle) != serial[which]) ++mismatches[t];
      }
      cublasDestroy_v2(handle);
      cudaStreamDestroy(stream);
    });
  for (std::thread& th : threads) th.join();
  int failed = 0;
  for (int m : mismatches) failed += m;
  std::printf("threads: %d threads x %zu cases on their own streams, %d differed from serial\n",
              kThreadCount, cases.size(), failed);
  return failed != 0;
}

// Every device at once, one thread each: per-device launch state (shared
// memory attribute, cluster occupancy, capabilities) must be right on each.
int run_multi_gpu() {
  int devices = 0;
  CUDA_OK(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    std::printf("SKIP: multigpu needs 2 GPUs (found %d)\n", devices);
    return 77;
  }
  std::vector<Tally> tallies(devices);
  std::vector<std::thread> threads;
  for (int d = 0; d < devices; ++d)
    threads.emplace_back([&, d] {
      CUDA_OK(cudaSetDevice(d));
      cudaStream_t stream;
      CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      for (int round = 0; round < 3; ++round)
        for (const GemmCase& c : small_cases())
          tallies[d].add(c, run_and_check(c, Runner::BwgemmForced, 31 + d, stream));
      CUDA_OK(cudaStreamSynchronize(stream));
      CUDA_OK(cudaStreamDestroy(stream));
    });
  for (std::thread& th : threads) th.join();
  int status = 0;
  for (int d = 0; d < devices; ++d) {
    char name[32];
    std::snprintf(name, sizeof name, "multigpu device %d", d);
    status |= tallies[d].finish(name);
  }
  return status;
}

int run_sanitizer_subset() {
  Tally tally;
  for (const GemmCase& c : small_cases())
    tally.add(c, run_and_check(c, Runner::BwgemmForced, 5, nullptr));
  // One tile in two pieces of K (tile_split.h), NN with B's leading
  // dimension odd: the pieces' partials and arrival counts.
  GemmCase split;
  split.m = 256;
  split.n = 256;
  split.k = 4097;
  split.ld_align = 1;
  split.nan_padding = true;
  split.beta = 0.5f;
  tally.add(split, run_and_check(split, Runner::BwgemmForced, 5, nullptr));
  return tally.finish("sanitizer subset");
}

}  // namespace

int main(int argc, char** argv) {
  skip_without_gpu();
  int major = 0;
  CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major != 9) {
    std::printf("SKIP: the sm90 kernel needs compute capability 9.0 (this GPU is %d.x)\n", major);
    return 77;
  }
  const std::string mode = argc > 1 ? argv[1] : "matrix";
  if (mode == "matrix") return run_matrix();
  if (mode == "random")
    return run_random(argc > 2 ? std::atoi(argv[2]) : 2000,
                      argc > 3 ? std::strtoull(argv[3], nullptr, 10) : std::random_device{}());
  if (mode == "determinism") return run_determinism();
  if (mode == "graph") return run_graph();
  if (mode == "threads") return run_threads();
  if (mode == "sanitizer") return run_sanitizer_subset();
  if (mode == "multigpu") return run_multi_gpu();
  if (mode == "one" && argc >= 6) {
    GemmCase c;
    c.ta = argv[2][0] == 'T';
    c.tb = argv[2][1] == 'T';
    c.m = std::atoll(argv[3]);
    c.n = std::atoll(argv[4]);
    c.k = std::atoll(argv[5]);
    c.ld_align = argc > 6 ? std::atoll(argv[6]) : 8;
    c.offset = argc > 7 ? std::atoll(argv[7]) : 0;
    c.ab = argc > 8 && std::atoi(argv[8]) ? Elem::BF16 : Elem::F16;
    c.c = argc > 9 && std::atoi(argv[9]) ? Elem::F32 : c.ab;
    Tally tally;
    tally.add(c, run_and_check(c, Runner::BwgemmForced, 11, nullptr));
    return tally.finish("one");
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}
