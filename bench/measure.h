// SPDX-License-Identifier: MIT
// The paths being compared and how each is timed.
//
// Paths: "cublas" is the real cuBLAS called directly; "dispatch", "kernel" and
// "forward" are bwgemmGemmEx (or its strided-batched form) under the thread
// policies AUTO, FORCE_KERNEL and FORCE_CUBLAS. A -lt shape calls
// cublasLtMatmul instead: the real cuBLASLt's, and libbwgemm's, its
// "forward" path under AUTO (decoded, planned, forwarded: see select()). All paths of a shape run
// in one process, on one stream and one cuBLAS handle, over the same device buffers (a
// baseline, below, over its own).
//
// Device time (every throughput suite): after a warm-up, `reps` rounds; each
// round runs every path once, the rounds going through every order of the
// paths in turn, and times each call alone with a pair of CUDA events. A 50 us wait kernel
// is enqueued before each timed call so the GEMM is already queued when its
// start event fires: otherwise, on small shapes, the events would also time
// the host enqueueing the call.
//
// Rates (the small, decode and models suites, and --rates): "eager" is the wall time of N
// back-to-back calls on one stream and one synchronize, over N, host time
// included; "graph" is the same N calls captured in one CUDA graph, replayed,
// wall time over N: the device time per call of a stream of calls. "model" is
// what a call adds to a graph where another kernel precedes each call, as a
// model's norms and activations precede its projections: the graph of N
// (empty kernel, call) pairs less the graph of the N empty kernels, in the
// same batch. Back to back, a call's start can overlap the previous call's
// end where it is launched as a programmatic dependent; after a kernel that
// does not release its dependents early, as in a model, it cannot.
//
// Host cost (the host suite): wall time per call of the host function alone,
// in chunks of calls with the stream drained before each chunk so the GPU is
// idle and the launch queue never fills. Its "bare" path is cudaLaunchKernelEx
// of the kernel the kernel path ran, prepared ahead (bare_launch.h).
//
// Baseline (shapes with one, the gpt2 and odd suites): the real cuBLAS on the
// shape's aligned baseline call (suites.h) is a path of the same rounds as
// dispatch and kernel, over its own operand sets, so the ratio of an odd
// call's throughput to its baseline's is taken under one clock. A GPU at its
// power limit clocks by what it runs: timed shape by shape, the aligned calls
// ran at 1440-1590 MHz on an H200, the odd ones at 1935-1980, which favoured
// bwgemm by up to a third. cuBLAS's own call on such a shape is slow (95-150
// TFLOP/s against 600-800) and would leave the GPU below its power limit for
// most of each round, so it is timed in rounds of its own after the others:
// the rounds of dispatch, kernel and baseline draw the power a program of
// back-to-back fast GEMMs does (a training step's). The ratios to cuBLAS on
// the shape itself are then across rounds, cuBLAS's at its own (higher) clock.
//
// Copy bandwidth: a device-to-device copy of kCopyBytes timed alone with CUDA
// events, bytes read plus bytes written over the median time: the bandwidth
// a memory-bound GEMM can be judged against.
#ifndef BWGEMM_BENCH_MEASURE_H
#define BWGEMM_BENCH_MEASURE_H

#include <memory>
#include <string>
#include <vector>

#include "bare_launch.h"
#include "gpu_info.h"
#include "real_cublas.h"
#include "suites.h"

namespace bench {

// Above this relative Frobenius error a path is flagged MISMATCH. Two correct
// fp32-accumulated GEMMs differ by about their output rounding: ~1e-3 in bf16.
constexpr double kMismatchTolerance = 1e-2;

// The host suite's sampling: kHostBatches samples of kHostCalls calls each,
// the stream drained before every kHostChunk calls. The paths take turns
// batch by batch, so the differences between paths are taken batch by batch
// too (PathResult::host_over): a slow stretch of the host moves both sides
// of a difference, not one path's median alone.
constexpr int kHostBatches = 21;
constexpr int kHostCalls = 1000;
constexpr int kHostChunk = 50;

// The copy bandwidth's sampling (1 GiB: far past any L2).
constexpr size_t kCopyBytes = size_t{1} << 30;
constexpr int kCopyReps = 15;

enum class Path { kCublas, kDispatch, kKernel, kForward, kBareLaunch, kBaseline };
const char* path_name(Path path);

// The paths of the throughput suites and of the host suite, in the order
// the tables show them; the direct cuBLAS call comes first in each (the
// denominator of every "vs cuBLAS" ratio). A shape with a baseline adds
// Path::kBaseline after these. A new host-suite path is a new entry here, a
// case in Bench::gemm and its target in output.cpp.
constexpr Path kThroughputPaths[] = {Path::kCublas, Path::kDispatch, Path::kKernel};
constexpr Path kHostPaths[] = {Path::kCublas, Path::kForward, Path::kKernel, Path::kBareLaunch};

struct Options {
  int reps = 30;
  bool burst = false;     // 2 s idle before each shape instead of a 200 ms warm-up
  bool beta_one = false;  // beta = 1 (C read and accumulated) instead of 0
};

// Times in microseconds per call over `samples` samples; NaN where not measured.
struct Stats {
  double median_us, min_us, p90_us;
  int samples;
};

// The measured device-to-device copy bandwidth; NaN (and `unavailable` says
// why) when the buffers could not be allocated.
struct CopyBandwidth {
  size_t bytes;  // copied per rep; each is read once and written once
  Stats us;
  double tbps;  // 2 * bytes / median time, in 10^12 bytes per second
  std::string unavailable;
};

// The statistics of a[i] - b[i]: two paths' samples taken in the same
// rounds, difference by difference (the host suite's "vs" columns).
Stats paired_differences(const std::vector<double>& a, const std::vector<double>& b);

struct PathResult {
  Path path;
  Stats device, eager, graph, model, host;
  // Host suite: the batch-by-batch differences of this path's time per call
  // from cuBLAS's and from the bare launch's (NaN where not measured).
  Stats host_over_cublas, host_over_bare;
  // What bwgemmGetLastDispatch reported after this path's calls ("sm90:<kernel>",
  // "fwd:<REASON>"), each distinct answer once; {"cublas"} for the direct path;
  // for the bare launch, what it launches or "none: <why>".
  std::vector<std::string> ran;
  std::string kernel, reason;  // of the last call (bwgemm paths)
  double rel_err;              // ||C - C_cublas|| / ||C_cublas||; NaN for cuBLAS itself
  bool mismatch;               // rel_err > kMismatchTolerance, or not a number
};

struct ShapeResult {
  Shape shape;
  Layout layout;
  int sets = 1;      // operand sets rotated through, so the L2 cannot hold them
  double bytes = 0;  // bytes_moved(): A, B, C when beta != 0, D
  bool rates = false;
  std::vector<PathResult> paths;  // paths[0] is the direct cuBLAS call
  unsigned sm_clock_mhz = 0;      // right after the timed calls; 0 if unknown
  // With a baseline: right after cuBLAS's own rounds on the shape (0: none).
  unsigned cublas_sm_clock_mhz = 0;
  bool mismatch = false;  // some path's mismatch is set
};

class Bench {
 public:
  Bench(const RealCublas& cublas, const GpuInfo& gpu, const SmClock& clock, const Options& options);
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  // Times a device-to-device copy of kCopyBytes, kCopyReps times.
  CopyBandwidth measure_copy_bandwidth();
  // cublas, dispatch and kernel: device time, and eager/graph rates if asked.
  ShapeResult run_throughput(const Shape& shape, bool rates);
  // kHostPaths: host time per call.
  ShapeResult run_host_cost(const Shape& shape);

 private:
  class Operands;
  struct BaselineCall;

  void select(Path path) const;
  void gemm(Path path, const Shape& s, const Layout& l, const Operands& ops, int set) const;
  void note_dispatch(PathResult* r) const;
  bool can_time(Path path) const;  // false for a bare launch that could not be built
  void prepare_bare_launch(ShapeResult* r, const Operands& ops);
  void warm_up(ShapeResult* r, const Operands& ops);
  void time_device(ShapeResult* r, const Operands& ops, const std::vector<size_t>& group);
  void time_rates(ShapeResult* r, const Operands& ops);
  double host_time_per_call(Path path, const ShapeResult& r, const Operands& ops);
  void check(ShapeResult* r, const Operands& ops);

  const RealCublas& cublas_;
  const GpuInfo& gpu_;
  const SmClock& clock_;
  Options options_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  cublasLtHandle_t lt_handle_ = nullptr;  // the real cuBLASLt's, for the -lt shapes
  void* workspace_ = nullptr;
  int next_set_ = 0;
  std::unique_ptr<BareLaunch> bare_;        // the host suite's current shape's
  std::unique_ptr<BaselineCall> baseline_;  // the current shape's, where it has one
  bool lt_shape_ = false;  // the host suite's current shape is a -lt one (see select())
};

}  // namespace bench

#endif  // BWGEMM_BENCH_MEASURE_H
