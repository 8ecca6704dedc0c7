// SPDX-License-Identifier: MIT
#include "measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <thread>

#include "device_ops.h"
#include "traffic.h"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kOperandSeed = 0x5EEDull;  // A, B and C of every set
constexpr uint64_t kCheckSeed = 0xC4ECull;    // C before each correctness-check call
constexpr uint64_t kSpinNs = 50'000;          // > host time of any one enqueue (cuBLAS: ~10 us)
constexpr int kWarmupRounds = 3;
constexpr double kWarmupSeconds = 0.2;  // of back-to-back calls, so the clocks have ramped
constexpr auto kBurstIdle = std::chrono::seconds(2);
constexpr int kRateCalls = 200;
constexpr int kRateBatches = 5;
// cuBLAS's own default on Hopper and Blackwell; set explicitly so that no call
// allocates one lazily, which stream capture would refuse.
constexpr size_t kWorkspaceBytes = size_t{32} << 20;
constexpr int kCopyWarmups = 3;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr Stats kNotMeasured = {kNaN, kNaN, kNaN, 0};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

Stats summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  const size_t p90 = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n))) - 1;
  return {median, v.front(), v[p90], static_cast<int>(n)};
}

}  // namespace

Stats paired_differences(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d(a.size() < b.size() ? a.size() : b.size());
  for (size_t i = 0; i < d.size(); ++i) d[i] = a[i] - b[i];
  return d.empty() ? kNotMeasured : summarize(d);
}

namespace {

PathResult fresh(Path path) {
  PathResult r;
  r.path = path;
  r.device = r.eager = r.graph = r.model = r.host = r.host_over_cublas = r.host_over_bare =
      kNotMeasured;
  r.rel_err = kNaN;
  r.mismatch = false;
  if (path == Path::kCublas) r.ran = {"cublas"};
  return r;
}

// The order of the paths within a round. It goes through every permutation in
// turn (std::next_permutation cycles back to the first), so over 6 rounds each
// of 3 paths runs first, second and last, and after each other path, equally
// often: no path always inherits the same predecessor's clocks or cache.
class RoundOrder {
 public:
  explicit RoundOrder(size_t paths) : order_(paths) {
    std::iota(order_.begin(), order_.end(), size_t{0});
  }
  const std::vector<size_t>& paths() const { return order_; }
  void advance() { std::next_permutation(order_.begin(), order_.end()); }

 private:
  std::vector<size_t> order_;
};

}  // namespace

const char* path_name(Path path) {
  switch (path) {
    case Path::kCublas: return "cublas";
    case Path::kDispatch: return "dispatch";
    case Path::kKernel: return "kernel";
    case Path::kForward: return "forward";
    case Path::kBareLaunch: return "bare";
    case Path::kBaseline: return "baseline";
  }
  return "?";
}

// Every operand set of one shape in one allocation: A, B and C of set 0, then
// of set 1, ..., then one C-sized buffer for the cuBLAS reference output.
// A -lt shape's cuBLASLt descriptors (the real library's: bwgemm decodes
// them through its getters) and bias vector, made once per shape.
class LtCall {
 public:
  LtCall(const RealCublas& lt, const Shape& s, const Layout& l, cudaStream_t stream) : lt_(lt) {
    const cudaDataType t = cuda_type(s.dtype);
    BENCH_CUBLAS(lt.lt_desc_create(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const int32_t ta = s.op_a, tb = s.op_b;
    const uint32_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    BENCH_CUDA(cudaMalloc(&bias_, static_cast<size_t>(s.m) * kElementBytes));
    fill_gaussian(bias_, static_cast<size_t>(s.m), s.dtype, kOperandSeed + 1, stream);
    const void* bias = bias_;
    BENCH_CUBLAS(lt.lt_desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    BENCH_CUBLAS(lt.lt_desc_set(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    BENCH_CUBLAS(lt.lt_desc_set(desc_, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
    BENCH_CUBLAS(lt.lt_desc_set(desc_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    const bool na = s.op_a == CUBLAS_OP_N, nb = s.op_b == CUBLAS_OP_N;
    BENCH_CUBLAS(lt.lt_layout_create(&a_, t, na ? s.m : s.k, na ? s.k : s.m, l.lda));
    BENCH_CUBLAS(lt.lt_layout_create(&b_, t, nb ? s.k : s.n, nb ? s.n : s.k, l.ldb));
    BENCH_CUBLAS(lt.lt_layout_create(&c_, t, s.m, s.n, l.ldc));
  }
  ~LtCall() {
    lt_.lt_layout_destroy(a_);
    lt_.lt_layout_destroy(b_);
    lt_.lt_layout_destroy(c_);
    lt_.lt_desc_destroy(desc_);
    cudaFree(bias_);
  }
  LtCall(const LtCall&) = delete;
  LtCall& operator=(const LtCall&) = delete;

  const void* bias() const { return bias_; }

  // D = C in place, as PyTorch calls it.
  void run(decltype(&cublasLtMatmul) matmul, cublasLtHandle_t handle, const void* alpha,
           const void* A, const void* B, const void* beta, void* C, void* workspace,
           size_t workspace_bytes, cudaStream_t stream) const {
    BENCH_CUBLAS(matmul(handle, desc_, alpha, A, a_, B, b_, beta, C, c_, C, c_, nullptr, workspace,
                        workspace_bytes, stream));
  }

 private:
  const RealCublas& lt_;
  cublasLtMatmulDesc_t desc_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  void* bias_ = nullptr;
};

class Bench::Operands {
 public:
  Operands(const Shape& s, const Layout& l, size_t l2_bytes, bool rotate, cudaStream_t stream,
           const RealCublas& cublas)
      : stream_(stream) {
    if (s.lt) lt_ = std::make_unique<LtCall>(cublas, s, l, stream);
    const SetBytes bytes = set_bytes(s, l);
    a_bytes_ = bytes.a;
    b_bytes_ = bytes.b;
    c_bytes_ = bytes.c;
    c_elems_ = static_cast<size_t>(l.c_elems) * static_cast<size_t>(s.batch);
    set_bytes_ = bytes.total();
    sets_ = rotate ? operand_sets(set_bytes_, l2_bytes) : 1;
    const size_t total = set_bytes_ * static_cast<size_t>(sets_) + c_bytes_;
    void* slab = nullptr;
    BENCH_CUDA(cudaMalloc(&slab, total));
    slab_ = static_cast<char*>(slab);
    // One fill for everything: every element of every set is a distinct draw.
    fill_gaussian(slab_, total / kElementBytes, s.dtype, kOperandSeed, stream_);
  }
  ~Operands() {
    BENCH_CUDA(cudaStreamSynchronize(stream_));  // nothing may still use the buffers
    BENCH_CUDA(cudaFree(slab_));
  }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;

  int sets() const { return sets_; }
  const LtCall* lt() const { return lt_.get(); }
  const void* a(int set) const { return base(set); }
  const void* b(int set) const { return base(set) + a_bytes_; }
  void* c(int set) const { return base(set) + a_bytes_ + b_bytes_; }
  void* reference() const { return base(sets_); }
  size_t c_elems() const { return c_elems_; }  // all batches, padding rows included

 private:
  char* base(int set) const { return slab_ + static_cast<size_t>(set) * set_bytes_; }

  cudaStream_t stream_;
  char* slab_ = nullptr;
  size_t a_bytes_ = 0, b_bytes_ = 0, c_bytes_ = 0, c_elems_ = 0, set_bytes_ = 0;
  int sets_ = 1;
  std::unique_ptr<LtCall> lt_;  // -lt shapes only
};

// The baseline's call and its own operand sets, rotated like the shape's.
struct Bench::BaselineCall {
  Shape shape;
  Layout layout;
  std::unique_ptr<Operands> ops;
};

Bench::Bench(const RealCublas& cublas, const GpuInfo& gpu, const SmClock& clock,
             const Options& options)
    : cublas_(cublas), gpu_(gpu), clock_(clock), options_(options) {
  BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  // Through bwgemm's cublasCreate_v2 (libbwgemm exports it; the bench does not
  // link cuBLAS): bwgemm runs its kernels only on handles it saw created. The
  // handle is the real cuBLAS's, so the direct calls take it too.
  BENCH_CUBLAS(cublasCreate_v2(&handle_));
  BENCH_CUBLAS(cublas_.set_stream(handle_, stream_));  // resets the workspace: set it after
  BENCH_CUDA(cudaMalloc(&workspace_, kWorkspaceBytes));
  BENCH_CUBLAS(cublas_.set_workspace(handle_, workspace_, kWorkspaceBytes));
  BENCH_CUBLAS(cublas_.lt_create(&lt_handle_));
}

Bench::~Bench() {
  BENCH_CUBLAS(cublas_.lt_destroy(lt_handle_));
  BENCH_CUBLAS(cublasDestroy_v2(handle_));
  BENCH_CUDA(cudaFree(workspace_));
  BENCH_CUDA(cudaStreamDestroy(stream_));
}

void Bench::select(Path path) const {
  switch (path) {
    case Path::kCublas:
    case Path::kBaseline:
    case Path::kBareLaunch: return;
    case Path::kDispatch: BENCH_CUBLAS(bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO)); return;
    case Path::kKernel: BENCH_CUBLAS(bwgemmSetThreadPolicy(BWGEMM_POLICY_FORCE_KERNEL)); return;
    // Forwarding is measured as a program meets it: planned under AUTO (a
    // -lt shape's descriptors decoded first), then forwarded because cuBLAS
    // is preferred at these sizes (FORCE_CUBLAS would skip the plan).
    case Path::kForward: BENCH_CUBLAS(bwgemmSetThreadPolicy(BWGEMM_POLICY_AUTO)); return;
  }
}

// One GEMM on the given path under the thread policy select() set; nothing else,
// so that host timings measure the call alone. The bare launch was prepared on
// set 0, the host suite's only set. The baseline runs on its own operands,
// the shape's set number wrapped to its own count.
void Bench::gemm(Path path, const Shape& s, const Layout& l, const Operands& ops, int set) const {
  if (path == Path::kBareLaunch) {
    bare_->enqueue();
    return;
  }
  if (path == Path::kBaseline) {
    const BaselineCall& b = *baseline_;
    gemm(Path::kCublas, b.shape, b.layout, *b.ops, set % b.ops->sets());
    return;
  }
  static const float kOne = 1.0f, kZero = 0.0f;
  const float* alpha = &kOne;
  const float* beta = options_.beta_one ? &kOne : &kZero;
  const cudaDataType t = cuda_type(s.dtype);
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  const int lda = static_cast<int>(l.lda), ldb = static_cast<int>(l.ldb),
            ldc = static_cast<int>(l.ldc);
  const void *A = ops.a(set), *B = ops.b(set);
  void* C = ops.c(set);
  const bool direct = path == Path::kCublas;
  if (const LtCall* lt = ops.lt()) {
    // bwgemm's cublasLtMatmul is the name the bench links (libbwgemm exports it).
    lt->run(direct ? cublas_.lt_matmul : &cublasLtMatmul, lt_handle_, alpha, A, B, beta, C,
            workspace_, kWorkspaceBytes, stream_);
  } else if (s.batch == 1) {
    const auto fn = direct ? cublas_.gemm_ex : &bwgemmGemmEx;
    BENCH_CUBLAS(fn(handle_, s.op_a, s.op_b, m, n, k, alpha, A, t, lda, B, t, ldb, beta, C, t, ldc,
                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  } else {
    const auto fn = direct ? cublas_.gemm_strided_batched_ex : &bwgemmGemmStridedBatchedEx;
    BENCH_CUBLAS(fn(handle_, s.op_a, s.op_b, m, n, k, alpha, A, t, lda, l.a_elems, B, t, ldb,
                    l.b_elems, beta, C, t, ldc, l.c_elems, static_cast<int>(s.batch),
                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
}

void Bench::note_dispatch(PathResult* r) const {
  if (r->path == Path::kCublas || r->path == Path::kBareLaunch || r->path == Path::kBaseline)
    return;
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  BENCH_CUBLAS(bwgemmGetLastDispatch(&info));
  r->kernel = info.kernel ? info.kernel : "";
  r->reason = info.reason_name ? info.reason_name : "";
  std::string ran;
  switch (info.path) {
    case BWGEMM_PATH_SM90: ran = "sm90:" + r->kernel; break;
    case BWGEMM_PATH_SM100: ran = "sm100:" + r->kernel; break;
    case BWGEMM_PATH_CUBLAS: ran = "fwd:" + r->reason; break;
    default: ran = "none"; break;
  }
  if (std::find(r->ran.begin(), r->ran.end(), ran) == r->ran.end()) r->ran.push_back(ran);
}

// At least kWarmupRounds calls per path (module loading, cuBLAS's heuristics,
// bwgemm's caches). Sustained mode then keeps going until kWarmupSeconds have
// passed so the clocks are up whatever ran before; burst mode starts from 2 s
// of idle instead.
void Bench::warm_up(ShapeResult* r, const Operands& ops) {
  if (options_.burst) {
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    std::this_thread::sleep_for(kBurstIdle);
  }
  const auto t0 = Clock::now();
  for (int round = 0;
       round < kWarmupRounds || (!options_.burst && seconds_since(t0) < kWarmupSeconds); ++round) {
    for (PathResult& p : r->paths) {
      if (!can_time(p.path)) continue;
      select(p.path);
      gemm(p.path, r->shape, r->layout, ops, next_set_);
      next_set_ = (next_set_ + 1) % ops.sets();
      note_dispatch(&p);
    }
    BENCH_CUDA(cudaStreamSynchronize(stream_));
  }
}

// Times the paths `group` (indices into r->paths) in the same rounds.
void Bench::time_device(ShapeResult* r, const Operands& ops, const std::vector<size_t>& group) {
  const size_t paths = group.size(), reps = static_cast<size_t>(options_.reps);
  std::vector<cudaEvent_t> start(paths * reps), stop(paths * reps);
  for (size_t i = 0; i < start.size(); ++i) {
    BENCH_CUDA(cudaEventCreate(&start[i]));
    BENCH_CUDA(cudaEventCreate(&stop[i]));
  }
  RoundOrder order(paths);
  for (size_t rep = 0; rep < reps; ++rep, order.advance())
    for (size_t g : order.paths()) {
      const size_t e = g * reps + rep;
      PathResult& path = r->paths[group[g]];
      select(path.path);
      spin(stream_, kSpinNs);
      BENCH_CUDA(cudaEventRecord(start[e], stream_));
      gemm(path.path, r->shape, r->layout, ops, next_set_);
      BENCH_CUDA(cudaEventRecord(stop[e], stream_));
      next_set_ = (next_set_ + 1) % ops.sets();
      note_dispatch(&path);
    }
  BENCH_CUDA(cudaStreamSynchronize(stream_));
  for (size_t g = 0; g < paths; ++g) {
    std::vector<double> us(reps);
    for (size_t rep = 0; rep < reps; ++rep) {
      float ms = 0;
      BENCH_CUDA(cudaEventElapsedTime(&ms, start[g * reps + rep], stop[g * reps + rep]));
      us[rep] = 1e3 * ms;
    }
    r->paths[group[g]].device = summarize(us);
  }
  for (size_t i = 0; i < start.size(); ++i) {
    BENCH_CUDA(cudaEventDestroy(start[i]));
    BENCH_CUDA(cudaEventDestroy(stop[i]));
  }
}

void Bench::time_rates(ShapeResult* r, const Operands& ops) {
  const size_t paths = r->paths.size();
  // Capture first (capturing is not timed): the empty kernels alone, then
  // each path's calls, and each path's calls each after an empty kernel.
  const auto instantiate = [&](const std::function<void(int)>& enqueue) {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    BENCH_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kRateCalls; ++i) enqueue(i);
    BENCH_CUDA(cudaStreamEndCapture(stream_, &graph));
    BENCH_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    BENCH_CUDA(cudaGraphDestroy(graph));
    BENCH_CUDA(cudaGraphUpload(exec, stream_));
    BENCH_CUDA(cudaGraphLaunch(exec, stream_));  // first replay, untimed
    return exec;
  };
  const auto replay_us = [&](cudaGraphExec_t exec) {
    const auto t0 = Clock::now();
    BENCH_CUDA(cudaGraphLaunch(exec, stream_));
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    return 1e6 * seconds_since(t0) / kRateCalls;
  };
  const cudaGraphExec_t spacers = instantiate([&](int) { spacer(stream_); });
  std::vector<cudaGraphExec_t> graphs(paths), spaced(paths);
  for (size_t p = 0; p < paths; ++p) {
    const Path path = r->paths[p].path;
    select(path);
    const auto call = [&](int i) {
      gemm(path, r->shape, r->layout, ops, (next_set_ + i) % ops.sets());
    };
    graphs[p] = instantiate(call);
    spaced[p] = instantiate([&](int i) {
      spacer(stream_);
      call(i);
    });
    note_dispatch(&r->paths[p]);
  }
  BENCH_CUDA(cudaStreamSynchronize(stream_));

  std::vector<std::vector<double>> eager(paths), replay(paths), model(paths);
  RoundOrder order(paths);
  for (int batch = 0; batch < kRateBatches; ++batch, order.advance()) {
    const double spacer_us = replay_us(spacers);
    for (size_t p : order.paths()) {
      const Path path = r->paths[p].path;
      select(path);
      auto t0 = Clock::now();
      for (int i = 0; i < kRateCalls; ++i) {
        gemm(path, r->shape, r->layout, ops, next_set_);
        next_set_ = (next_set_ + 1) % ops.sets();
      }
      BENCH_CUDA(cudaStreamSynchronize(stream_));
      eager[p].push_back(1e6 * seconds_since(t0) / kRateCalls);
      replay[p].push_back(replay_us(graphs[p]));
      model[p].push_back(replay_us(spaced[p]) - spacer_us);
    }
  }
  for (size_t p = 0; p < paths; ++p) {
    r->paths[p].eager = summarize(eager[p]);
    r->paths[p].graph = summarize(replay[p]);
    r->paths[p].model = summarize(model[p]);
    BENCH_CUDA(cudaGraphExecDestroy(graphs[p]));
    BENCH_CUDA(cudaGraphExecDestroy(spaced[p]));
  }
  BENCH_CUDA(cudaGraphExecDestroy(spacers));
}

double Bench::host_time_per_call(Path path, const ShapeResult& r, const Operands& ops) {
  select(path);
  double busy = 0;
  for (int done = 0; done < kHostCalls; done += kHostChunk) {
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    const auto t0 = Clock::now();
    for (int i = 0; i < kHostChunk; ++i) gemm(path, r.shape, r.layout, ops, 0);
    busy += seconds_since(t0);
  }
  BENCH_CUDA(cudaStreamSynchronize(stream_));
  return 1e6 * busy / kHostCalls;
}

// The cuBLAS output is the reference. Every path starts from the same C (beta
// may be 1), and the whole C buffer is compared, the padding rows between m
// and ldc included: they are equal in every run unless a path wrote there.
// The baseline, another call of cuBLAS's own, has nothing to be compared with.
void Bench::check(ShapeResult* r, const Operands& ops) {
  const size_t n = ops.c_elems();
  for (PathResult& p : r->paths) {
    if (!can_time(p.path) || p.path == Path::kBaseline) continue;
    fill_gaussian(ops.c(0), n, r->shape.dtype, kCheckSeed, stream_);
    select(p.path);
    gemm(p.path, r->shape, r->layout, ops, 0);
    note_dispatch(&p);
    if (p.path == Path::kCublas) {
      BENCH_CUDA(cudaMemcpyAsync(ops.reference(), ops.c(0), n * kElementBytes,
                                 cudaMemcpyDeviceToDevice, stream_));
      continue;
    }
    p.rel_err = relative_error(ops.c(0), ops.reference(), n, r->shape.dtype, stream_);
    p.mismatch = !(p.rel_err <= kMismatchTolerance);  // NaN fails too
    r->mismatch = r->mismatch || p.mismatch;
  }
}

bool Bench::can_time(Path path) const {
  return path != Path::kBareLaunch || (bare_ != nullptr && bare_->ready());
}

CopyBandwidth Bench::measure_copy_bandwidth() {
  CopyBandwidth c{kCopyBytes, kNotMeasured, kNaN, ""};
  void *src = nullptr, *dst = nullptr;
  if (cudaMalloc(&src, kCopyBytes) != cudaSuccess || cudaMalloc(&dst, kCopyBytes) != cudaSuccess) {
    (void)cudaGetLastError();  // out of memory is not sticky; clear it
    if (src != nullptr) BENCH_CUDA(cudaFree(src));
    c.unavailable = "cannot allocate 2 x " + std::to_string(kCopyBytes >> 20) + " MiB";
    return c;
  }
  fill_gaussian(src, kCopyBytes / kElementBytes, DType::kBF16, kOperandSeed, stream_);
  std::vector<cudaEvent_t> start(kCopyReps), stop(kCopyReps);
  for (int i = 0; i < kCopyReps; ++i) {
    BENCH_CUDA(cudaEventCreate(&start[i]));
    BENCH_CUDA(cudaEventCreate(&stop[i]));
  }
  // As long as a shape's warm-up, so the clocks are up as they are for the GEMMs.
  const auto t0 = Clock::now();
  for (int i = 0; i < kCopyWarmups || seconds_since(t0) < kWarmupSeconds; ++i) {
    BENCH_CUDA(cudaMemcpyAsync(dst, src, kCopyBytes, cudaMemcpyDeviceToDevice, stream_));
    BENCH_CUDA(cudaStreamSynchronize(stream_));
  }
  for (int i = 0; i < kCopyReps; ++i) {
    BENCH_CUDA(cudaEventRecord(start[i], stream_));
    BENCH_CUDA(cudaMemcpyAsync(dst, src, kCopyBytes, cudaMemcpyDeviceToDevice, stream_));
    BENCH_CUDA(cudaEventRecord(stop[i], stream_));
  }
  BENCH_CUDA(cudaStreamSynchronize(stream_));
  std::vector<double> us(kCopyReps);
  for (int i = 0; i < kCopyReps; ++i) {
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start[i], stop[i]));
    us[i] = 1e3 * ms;
    BENCH_CUDA(cudaEventDestroy(start[i]));
    BENCH_CUDA(cudaEventDestroy(stop[i]));
  }
  BENCH_CUDA(cudaFree(src));
  BENCH_CUDA(cudaFree(dst));
  c.us = summarize(us);
  c.tbps = copy_terabytes_per_second(kCopyBytes, c.us.median_us);
  return c;
}

ShapeResult Bench::run_throughput(const Shape& shape, bool rates) {
  ShapeResult r;
  r.shape = shape;
  r.layout = layout_of(shape);
  r.bytes = bytes_moved(shape, options_.beta_one);
  r.rates = rates;
  for (Path p : kThroughputPaths) r.paths.push_back(fresh(p));
  if (has_baseline(shape)) {
    const Shape b = baseline_of(shape);
    const Layout l = layout_of(b);
    baseline_.reset(new BaselineCall{
        b, l, std::make_unique<Operands>(b, l, gpu_.l2_bytes, true, stream_, cublas_)});
    r.paths.push_back(fresh(Path::kBaseline));
    r.paths.back().ran = {"cublas " + dims_name(b)};
  }
  const Operands ops(shape, r.layout, gpu_.l2_bytes, true, stream_, cublas_);
  r.sets = ops.sets();
  next_set_ = 0;
  warm_up(&r, ops);
  // Every path in the same rounds; with a baseline, cuBLAS on the shape
  // itself in rounds of its own after the others (measure.h).
  std::vector<size_t> group;
  for (size_t p = 0; p < r.paths.size(); ++p)
    if (!baseline_ || r.paths[p].path != Path::kCublas) group.push_back(p);
  time_device(&r, ops, group);
  r.sm_clock_mhz = clock_.current();
  if (baseline_) {
    time_device(&r, ops, {0});
    r.cublas_sm_clock_mhz = clock_.current();
  }
  if (rates) time_rates(&r, ops);
  check(&r, ops);
  baseline_.reset();
  return r;
}

// Runs the kernel path once and builds the bare launch of what it ran.
void Bench::prepare_bare_launch(ShapeResult* r, const Operands& ops) {
  select(Path::kKernel);
  gemm(Path::kKernel, r->shape, r->layout, ops, 0);
  bwgemmDispatchInfo_t info{};
  info.size = sizeof info;
  BENCH_CUBLAS(bwgemmGetLastDispatch(&info));
  const float beta = options_.beta_one ? 1.0f : 0.0f;
  bare_ = std::make_unique<BareLaunch>(
      info, GemmArgs{r->shape, r->layout, ops.a(0), ops.b(0), ops.c(0), 1.0f, beta, stream_,
                     ops.lt() != nullptr ? ops.lt()->bias() : nullptr});
  for (PathResult& p : r->paths)
    if (p.path == Path::kBareLaunch) p.ran = {bare_->description()};
}

ShapeResult Bench::run_host_cost(const Shape& shape) {
  lt_shape_ = shape.lt;
  ShapeResult r;
  r.shape = shape;
  r.layout = layout_of(shape);
  r.bytes = bytes_moved(shape, options_.beta_one);
  for (Path p : kHostPaths) r.paths.push_back(fresh(p));
  // Host time does not depend on caching, so one operand set will do.
  const Operands ops(shape, r.layout, gpu_.l2_bytes, false, stream_, cublas_);
  next_set_ = 0;
  prepare_bare_launch(&r, ops);
  warm_up(&r, ops);
  std::vector<size_t> timed;
  for (size_t p = 0; p < r.paths.size(); ++p)
    if (can_time(r.paths[p].path)) timed.push_back(p);
  std::vector<std::vector<double>> us(r.paths.size());
  RoundOrder order(timed.size());
  for (int batch = 0; batch < kHostBatches; ++batch, order.advance())
    for (size_t i : order.paths()) {
      PathResult& p = r.paths[timed[i]];
      us[timed[i]].push_back(host_time_per_call(p.path, r, ops));
      note_dispatch(&p);
    }
  // Differences batch by batch, from the baselines timed in the same round.
  const auto over = [&](size_t p, Path baseline) {
    for (size_t q : timed)
      if (r.paths[q].path == baseline && q != p) return paired_differences(us[p], us[q]);
    return kNotMeasured;
  };
  for (size_t p : timed) {
    r.paths[p].host = summarize(us[p]);
    r.paths[p].host_over_cublas = over(p, Path::kCublas);
    r.paths[p].host_over_bare = over(p, Path::kBareLaunch);
  }
  r.sm_clock_mhz = clock_.current();
  check(&r, ops);
  bare_.reset();  // it points into ops
  return r;
}

}  // namespace bench
