// SPDX-License-Identifier: MIT
// A bare launch of the kernel bwgemm runs for a call: everything
// cudaLaunchKernelEx takes (the variant, the parameter block with its TMA
// maps, grid, block, shared memory, cluster) built once, ahead of time, by
// the library's own launch code, which the bench links from bwgemm's internal
// objects (libbwgemm exports none of it). Enqueuing it is cudaLaunchKernelEx
// alone: the floor under the kernel path's host time per call. The kernel is
// the bench's own copy of the same code, loaded through the bench's CUDA
// runtime.
#ifndef BWGEMM_BENCH_BARE_LAUNCH_H
#define BWGEMM_BENCH_BARE_LAUNCH_H

#include <memory>
#include <string>

#include "suites.h"

namespace bench {

// One call's arguments, as the bench passes them to bwgemmGemmEx or, with a
// bias, to cublasLtMatmul (host pointer mode, C of A's type, bias of D's type).
struct GemmArgs {
  const Shape& shape;
  const Layout& layout;
  const void* a;
  const void* b;
  void* c;
  float alpha, beta;
  cudaStream_t stream;
  const void* bias;  // NULL: no epilogue
};

class BareLaunch {
 public:
  // Builds the launch of the configuration `ran` names, as
  // bwgemmGetLastDispatch reported it after bwgemm's kernel path took the
  // same call. ready() is false, and description() says why, when it names
  // no kernel of this build or the launch cannot be built.
  BareLaunch(const bwgemmDispatchInfo_t& ran, const GemmArgs& args);
  ~BareLaunch();
  BareLaunch(const BareLaunch&) = delete;
  BareLaunch& operator=(const BareLaunch&) = delete;

  bool ready() const { return prepared_ != nullptr; }
  // "sm90:<configuration>" when ready, else "none: <why>".
  const std::string& description() const { return description_; }
  // cudaLaunchKernelEx of the prepared launch; aborts on an error.
  void enqueue() const;

 private:
  struct Prepared;
  std::unique_ptr<Prepared> prepared_;
  std::string description_;
};

}  // namespace bench

#endif  // BWGEMM_BENCH_BARE_LAUNCH_H
