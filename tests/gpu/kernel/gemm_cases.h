// SPDX-License-Identifier: MIT
// One GEMM test case: its description, how to run it through bwgemm or the
// real cuBLAS, and how to check the result against an fp64 reference.
#pragma once

#include <bwgemm/bwgemm.h>

#include <cstdint>
#include <string>

enum class Elem { F16, BF16, F32 };

struct GemmCase {
  Elem ab = Elem::F16, c = Elem::F16;
  bool ta = false, tb = false;  // op(A), op(B) transposed
  int64_t m = 1, n = 1, k = 1;
  float alpha = 1.0f, beta = 0.0f;
  bool device_scalars = false;
  // Leading dimension = rows rounded up to ld_align elements, plus pad. With
  // ld_align 8 every leading dimension is 16-byte aligned (the kernel takes
  // it); with 1 it usually is not (bwgemm forwards the call).
  int64_t ld_align = 8;
  int64_t pad_a = 0, pad_b = 0, pad_c = 0;
  int64_t offset = 0;  // elements A, B and C start past a 16-byte boundary
  int64_t batch = 1;   // > 1: strided batched entry point
  bool broadcast_a = false, broadcast_b = false;  // batch stride 0
  // A's and B's padding (rows past their last, up to the leading dimension)
  // hold NaN: nothing outside the matrices may reach D.
  bool nan_padding = false;
};

std::string describe(const GemmCase& c);

// Whether A or B must be packed into 16-byte rows before the kernel can load
// them (a base, leading dimension or batch stride that is not a multiple of
// 16 bytes, and k > 0). Inside a stream capture such calls go to cuBLAS.
bool needs_pack(const GemmCase& c);

// Whether the sm90 kernel is expected to take the case when forced (outside
// a capture): any element-aligned layout, except operands to pack with
// alpha == 0 on the host (they must not be read).
bool kernel_takes(const GemmCase& c);

// Whether the kernel may read an unaligned B as it is, by row classes (NN,
// one matrix, D aligned; src/kernels/common/gemm_params.h), so that no
// packed copy is needed: such a case may then run on the kernel where
// kernel_takes says a pack would send it to cuBLAS.
bool may_read_b_by_class(const GemmCase& c);
// Likewise by row windows: B transposed (M/N-major), one matrix, k >= 8, A
// addressable as it is (sm90 configuration sm90_256x256x64_3stage_2cta_windows).
bool may_read_b_by_windows(const GemmCase& c);

struct CaseResult {
  bool ok;
  bwgemmPath_t path;  // which path bwgemm took
  std::string detail;
  std::string kernel;  // the configuration that ran (bwgemmGetLastDispatch), or ""
};

enum class Runner { BwgemmForced, RealCublas };

// Every case owns device buffers: inputs (gaussian, or NaN where they must
// not be read), C poisoned with NaN outside m x n and everywhere when beta ==
// 0, and an fp64 reference computed on the device.
//
// Runs `c` once with `runner` on `stream` and checks every element of C's
// allocation: inside m x n against the reference within a tolerance derived
// from k and the output type, outside bit-identical to what was there.
CaseResult run_and_check(const GemmCase& c, Runner runner, uint64_t seed, cudaStream_t stream);

// Runs `c` through bwgemm (forced kernel), or the real cuBLAS, and returns
// C's bytes, for determinism, graph and concurrency comparisons.
std::string run_and_fetch(const GemmCase& c, uint64_t seed, cudaStream_t stream,
                          cublasHandle_t handle, Runner runner = Runner::BwgemmForced);

// Captures the call in a CUDA graph, replays it `replays` times and returns C.
std::string run_in_graph_and_fetch(const GemmCase& c, uint64_t seed, int replays);

// Checks the device fp64 reference itself on a few elements against an fp64
// sum on the host. Returns false (and says why) on a mismatch.
bool spot_check_reference(const GemmCase& c, uint64_t seed, std::string* detail);
