// SPDX-License-Identifier: MIT
#include "output.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <limits>

#include "traffic.h"

namespace bench {
namespace {

// The host suite's targets, from the project's issues.
constexpr double kForwardTargetUs = 0.5;   // added by forwarding to cuBLAS
constexpr double kKernelTargetUs = 2.0;    // whole host cost of the kernel path
constexpr double kKernelOverBareUs = 0.3;  // kernel path over the bare launch

const char* mode_name(const Options& o) { return o.burst ? "burst" : "sustained"; }

std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// Numbers as the table shows them: "-" where there is none.
std::string fixed(double v, int decimals) {
  return std::isnan(v) ? "-" : format("%.*f", decimals, v);
}

double tflops(const Shape& s, double us) { return flop_count(s) / us * 1e-6; }

double tbps(const ShapeResult& r, double us) { return terabytes_per_second(r.bytes, us); }

// Throughput of `path` over cuBLAS's on the same call: > 1 means faster than cuBLAS.
double ratio(double cublas_us, double path_us) { return cublas_us / path_us; }

const PathResult* find_path(const ShapeResult& r, Path path) {
  for (const PathResult& p : r.paths)
    if (p.path == path) return &p;
  return nullptr;
}

// The call a path ran: the shape's own, or the baseline's.
Shape call_of(const ShapeResult& r, const PathResult& p) {
  return p.path == Path::kBaseline ? baseline_of(r.shape) : r.shape;
}

// A path's throughput over the baseline's in `metric` (NaN where the shape
// has none): the calls differ in size, so throughputs, not times.
double over_baseline(const ShapeResult& r, const PathResult& p, Stats PathResult::*metric) {
  const PathResult* base = find_path(r, Path::kBaseline);
  if (base == nullptr) return std::numeric_limits<double>::quiet_NaN();
  return flop_count(call_of(r, p)) / (p.*metric).median_us /
         (flop_count(baseline_of(r.shape)) / (base->*metric).median_us);
}

// A difference of times: "+0.42", or "-" where there is none.
std::string signed_us(double v) { return std::isnan(v) ? "-" : format("%+.2f", v); }

std::string ratio_text(double r) { return std::isnan(r) ? "-" : format("%.2fx", r); }

std::string join(const std::vector<std::string>& parts, const char* separator = "|") {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

bool ran_a_kernel(const PathResult& p) {
  for (const std::string& r : p.ran)
    if (r.rfind("sm", 0) != 0) return false;
  return !p.ran.empty();
}

// RFC 4180 quoting, for the free-text fields.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_number(double v, int decimals) {
  return std::isfinite(v) ? format("%.*f", decimals, v) : std::string();
}

const char* kCsvHeader =
    "suite,shape,m,n,k,op,dtype,batch,ld,lda,ldb,ldc,beta,sets,path,metric,median_us,min_us,p90_"
    "us,samples,tflops,ratio_vs_cublas,added_us,ran,kernel,reason,rel_err,mismatch,sm_clock_mhz,"
    "max_sm_clock_mhz,mode,gpu,bytes,tbps,bw_vs_copy,copy_tbps,vs_bare_us,vs_baseline\n";

const char* kThroughputFmt =
    "%-8s %-17s %-4s %-2s %-5s %5s %4s %8s %8s %8s %6s %6s %8s %8s %8s %6s %5s %-8s %-34s %s\n";
const char* kRatesFmt =
    "         ^ %-6s us/call %8s %8s %8s  %6s %6s  TB/s %s / %s / %s  d/copy %s\n";
const char* kHostFmt = "%-8s %-17s %-2s %-5s %-8s %8s %9s %8s %-38s %-8s %s\n";

}  // namespace

void print_run_header(const GpuInfo& gpu, const RealCublas& cublas, const SmClock& clock,
                      const Options& options, const CopyBandwidth& copy) {
  const int v = bwgemmGetVersion();
  Dl_info self{};
  const char* bwgemm_path = dladdr(reinterpret_cast<void*>(&bwgemmGemmEx), &self) && self.dli_fname
                                ? self.dli_fname
                                : "?";
  std::printf("bwgemm-bench: bwgemm %d.%d.%d (%s) vs cuBLAS %s (%s)\n", v / 10000, v / 100 % 100,
              v % 100, bwgemm_path, cublas.version.c_str(), cublas.path.c_str());
  std::printf("GPU %d: %s, sm_%d%d, %d SMs, L2 %.1f MB, %.1f GiB, PCI %s\n", gpu.device,
              gpu.name.c_str(), gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.l2_bytes / 1e6,
              gpu.memory_bytes / 1073741824.0, gpu.pci_bus_id.c_str());
  std::printf("CUDA driver %s, runtime %s; SM clock %s\n", gpu.driver_version.c_str(),
              gpu.runtime_version.c_str(), clock.describe().c_str());
  if (std::isnan(copy.tbps))
    std::printf("copy bandwidth: n/a (%s)\n", copy.unavailable.c_str());
  else
    std::printf(
        "copy bandwidth: %.3f TB/s (device-to-device copy of %.1f GiB, bytes read + bytes "
        "written over the median of %d reps; %.3f-%.3f TB/s)\n",
        copy.tbps, copy.bytes / 1073741824.0, copy.us.samples,
        copy_terabytes_per_second(copy.bytes, copy.us.p90_us),
        copy_terabytes_per_second(copy.bytes, copy.us.min_us));
  std::printf(
      "operand copies: each shape rotates through as many sets of A, B and C as make %zux the "
      "L2 (%.1f MB; at most %d sets), a new set per call, so operands come from memory, not "
      "the L2; the tables' \"sets\" column gives the count\n",
      kFootprintPerL2, static_cast<double>(kFootprintPerL2 * gpu.l2_bytes) / 1e6, kMaxSets);
  if (options.burst)
    std::printf(
        "mode: burst (2 s idle before each shape, then 3 warm-up calls per path and the "
        "reps: boost clocks)\n");
  else
    std::printf(
        "mode: sustained (shapes back to back, >= 200 ms of calls before each shape's "
        "reps: clocks ~15%% under burst)\n");
  std::printf(
      "timing: median of %d reps per path, one call per CUDA-event pair, paths interleaved "
      "in every order in turn, on the same buffers; inputs N(0,1); alpha 1, beta %d; fp32 "
      "accumulate (CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)\n",
      options.reps, options.beta_one ? 1 : 0);
  std::printf(
      "TFLOP/s = 2*m*n*k*batch / median time; TB/s = bytes of A, B, C (when beta != 0) and D "
      "/ median time; d/cub and k/cub = throughput of dispatch and kernel over cuBLAS (>1: "
      "faster than cuBLAS); d/copy = dispatch TB/s over the copy bandwidth; MHz = SM clock "
      "after the reps; a shape with a baseline (an aligned call it is held to) has cuBLAS on "
      "that call timed in the same rounds, and throughput over it on the line below\n");
  std::fflush(stdout);
}

void print_suite_list() {
  for (const Suite& suite : builtin_suites()) {
    std::printf("%-8s %s (%zu shapes)\n", suite.name.c_str(), suite.summary.c_str(),
                suite.shapes.size());
    for (const Shape& s : suite.shapes) {
      const Layout l = layout_of(s);
      std::printf("    %-17s %s %s ld=%-4s (lda %lld, ldb %lld, ldc %lld)%s%s\n",
                  dims_name(s).c_str(), op_name(s).c_str(), dtype_name(s.dtype), ld_name(s.ld),
                  static_cast<long long>(l.lda), static_cast<long long>(l.ldb),
                  static_cast<long long>(l.ldc), s.note.empty() ? "" : "  ", s.note.c_str());
    }
  }
  std::printf("all      every suite above, in this order\n");
}

Report::Report(const std::string& csv_path, const GpuInfo& gpu, const Options& options,
               unsigned max_clock_mhz, double copy_tbps)
    : gpu_name_(gpu.name),
      l2_bytes_(gpu.l2_bytes),
      options_(options),
      max_clock_mhz_(max_clock_mhz),
      copy_tbps_(copy_tbps) {
  csv_ = std::fopen(csv_path.c_str(), "w");
  if (csv_ == nullptr) {
    std::fprintf(stderr, "bwgemm-bench: cannot write %s\n", csv_path.c_str());
    std::exit(kExitFailure);
  }
  std::fputs(kCsvHeader, csv_);
}

Report::~Report() { std::fclose(csv_); }

void Report::begin_suite(const Suite& suite) {
  std::printf("\n== %s: %s\n", suite.name.c_str(), suite.summary.c_str());
  if (suite.kind == SuiteKind::kHostCost) {
    std::printf(
        "host time per call in us: median of %d batches of %d calls, the stream drained "
        "every %d calls so the GPU is idle; \"vs cublas\" and \"vs bare\": median of the "
        "batch-by-batch differences (the paths take turns each batch); \"bare\" is "
        "cudaLaunchKernelEx alone of the kernel the kernel path ran, its arguments built ahead "
        "(the floor); targets: forwarding adds <= %.2f us to cuBLAS, the kernel path costs <= "
        "%.2f us and <= %.2f us over the bare launch\n",
        kHostBatches, kHostCalls, kHostChunk, kForwardTargetUs, kKernelTargetUs, kKernelOverBareUs);
    std::printf(kHostFmt, "suite", "shape", "op", "dtype", "path", "us/call", "vs cublas",
                "vs bare", "targets", "check", "ran");
  } else {
    int fewest = kMaxSets, most = 1;
    for (const Shape& shape : suite.shapes) {
      const int sets = operand_sets(set_bytes(shape, layout_of(shape)).total(), l2_bytes_);
      fewest = std::min(fewest, sets);
      most = std::max(most, sets);
    }
    std::printf("operand sets rotated through: %d to %d per shape (%zux the %.1f MB L2)\n", fewest,
                most, kFootprintPerL2, static_cast<double>(l2_bytes_) / 1e6);
    std::printf("TFLOP/s and effective TB/s per path%s\n",
                suite.rates ? "; below each shape: us per call on the device (events, one "
                              "call), eager (back-to-back calls on one stream, host included), "
                              "in a CUDA graph (the device time per call of a stream of "
                              "calls) and model (what a call adds to a graph where an empty "
                              "kernel precedes each call, as a model's other kernels do), "
                              "cublas / dispatch / kernel, with ratios and TB/s"
                            : "");
    std::printf(kThroughputFmt, "suite", "shape", "ld", "op", "dtype", "batch", "sets", "cublas",
                "dispatch", "kernel", "d/cub", "k/cub", "cub TB/s", "dis TB/s", "ker TB/s",
                "d/copy", "MHz", "check", "dispatch ran", "kernel ran");
  }
  std::fflush(stdout);
}

void Report::add(const Suite& suite, const ShapeResult& r) {
  if (suite.kind == SuiteKind::kHostCost)
    print_host_rows(suite, r);
  else
    print_throughput_row(suite, r);
  if (r.mismatch) {
    std::vector<std::string> detail;
    for (const PathResult& p : r.paths)
      if (p.mismatch) detail.push_back(format("%s rel err %.2e", path_name(p.path), p.rel_err));
    std::printf("         ^ MISMATCH vs cuBLAS (limit %.0e): %s\n", kMismatchTolerance,
                join(detail, ", ").c_str());
    ++mismatches_;
  }
  std::fflush(stdout);
  write_csv(suite, r);
}

std::string Report::copy_ratio_text(const ShapeResult& r, double us) const {
  return fixed(tbps(r, us) / copy_tbps_, 2);
}

void Report::print_throughput_row(const Suite& suite, const ShapeResult& r) {
  const PathResult &cub = r.paths[0], &dis = r.paths[1], &ker = r.paths[2];
  const Shape& s = r.shape;
  std::printf(kThroughputFmt, suite.name.c_str(), dims_name(s).c_str(), ld_name(s.ld),
              op_name(s).c_str(), dtype_name(s.dtype), std::to_string(s.batch).c_str(),
              std::to_string(r.sets).c_str(), fixed(tflops(s, cub.device.median_us), 1).c_str(),
              fixed(tflops(s, dis.device.median_us), 1).c_str(),
              fixed(tflops(s, ker.device.median_us), 1).c_str(),
              ratio_text(ratio(cub.device.median_us, dis.device.median_us)).c_str(),
              ratio_text(ratio(cub.device.median_us, ker.device.median_us)).c_str(),
              fixed(tbps(r, cub.device.median_us), 3).c_str(),
              fixed(tbps(r, dis.device.median_us), 3).c_str(),
              fixed(tbps(r, ker.device.median_us), 3).c_str(),
              copy_ratio_text(r, dis.device.median_us).c_str(),
              r.sm_clock_mhz ? std::to_string(r.sm_clock_mhz).c_str() : "n/a",
              r.mismatch ? "MISMATCH" : "ok", join(dis.ran).c_str(), join(ker.ran).c_str());
  if (const PathResult* base = find_path(r, Path::kBaseline)) {
    const Shape b = baseline_of(s);
    const auto over = [&](const PathResult& p) {
      return ratio_text(over_baseline(r, p, &PathResult::device));
    };
    std::printf(
        "         ^ baseline %s %s ld=min: cuBLAS %s TFLOP/s in the rounds of dispatch and "
        "kernel; throughput over it: dispatch %s, kernel %s (cublas %s, in its own rounds, "
        "%s MHz)\n",
        dims_name(b).c_str(), op_name(b).c_str(),
        fixed(tflops(b, base->device.median_us), 1).c_str(), over(dis).c_str(), over(ker).c_str(),
        over(cub).c_str(),
        r.cublas_sm_clock_mhz ? std::to_string(r.cublas_sm_clock_mhz).c_str() : "n/a");
  }
  if (!r.rates) return;
  struct Metric {
    const char* name;
    Stats PathResult::*stats;
  };
  for (const Metric m :
       {Metric{"device", &PathResult::device}, Metric{"eager", &PathResult::eager},
        Metric{"graph", &PathResult::graph}, Metric{"model", &PathResult::model}}) {
    const double c = (cub.*m.stats).median_us, d = (dis.*m.stats).median_us,
                 k = (ker.*m.stats).median_us;
    std::printf(kRatesFmt, m.name, fixed(c, 2).c_str(), fixed(d, 2).c_str(), fixed(k, 2).c_str(),
                ratio_text(ratio(c, d)).c_str(), ratio_text(ratio(c, k)).c_str(),
                fixed(tbps(r, c), 3).c_str(), fixed(tbps(r, d), 3).c_str(),
                fixed(tbps(r, k), 3).c_str(), copy_ratio_text(r, d).c_str());
  }
}

namespace {

const char* verdict(double value, double limit) {
  return std::isnan(value) ? "n/a" : value <= limit ? "ok" : "OVER";
}

// What a host-suite path is held to, and whether it holds.
std::string host_targets(const PathResult& p, double vs_cublas, double vs_bare) {
  switch (p.path) {
    case Path::kForward:
      return format("+%.2f over cublas: %s", kForwardTargetUs,
                    verdict(vs_cublas, kForwardTargetUs));
    case Path::kKernel:
      if (!ran_a_kernel(p)) return "forwarded: none";
      return format("<= %.2f: %s, +%.2f over bare: %s", kKernelTargetUs,
                    verdict(p.host.median_us, kKernelTargetUs), kKernelOverBareUs,
                    verdict(vs_bare, kKernelOverBareUs));
    case Path::kBareLaunch: return "the floor";
    default: return "";
  }
}

}  // namespace

void Report::print_host_rows(const Suite& suite, const ShapeResult& r) {
  const Shape& s = r.shape;
  for (const PathResult& p : r.paths) {
    const double us = p.host.median_us;
    const double vs_cublas = p.host_over_cublas.median_us, vs_bare = p.host_over_bare.median_us;
    const bool base = p.path == Path::kCublas;
    std::printf(kHostFmt, suite.name.c_str(), dims_name(s).c_str(), op_name(s).c_str(),
                dtype_name(s.dtype), path_name(p.path), fixed(us, 2).c_str(),
                base ? "" : signed_us(vs_cublas).c_str(),
                p.path == Path::kBareLaunch ? "" : signed_us(vs_bare).c_str(),
                host_targets(p, vs_cublas, vs_bare).c_str(),
                base ? ""
                     : (p.mismatch              ? "MISMATCH"
                        : std::isnan(p.rel_err) ? "-"
                                                : "ok"),
                join(p.ran).c_str());
  }
}

void Report::write_csv(const Suite& suite, const ShapeResult& r) {
  const Shape& s = r.shape;
  const PathResult& cub = r.paths[0];
  struct Metric {
    const char* name;
    Stats PathResult::*stats;
  };
  const Metric metrics[] = {{"device", &PathResult::device},
                            {"eager", &PathResult::eager},
                            {"graph", &PathResult::graph},
                            {"model", &PathResult::model},
                            {"host", &PathResult::host}};
  for (const PathResult& p : r.paths)
    for (const Metric& m : metrics) {
      const Stats& st = p.*m.stats;
      if (st.samples == 0) continue;
      const Shape call = call_of(r, p);
      const double bytes =
          p.path == Path::kBaseline ? bytes_moved(call, options_.beta_one) : r.bytes;
      // Throughputs (calls of different sizes where one is the baseline).
      const double rate = flop_count(call) / st.median_us;
      const double cublas_rate = flop_count(s) / (cub.*m.stats).median_us;
      const bool host = m.stats == &PathResult::host;
      std::fprintf(
          csv_,
          "%s,%s,%lld,%lld,%lld,%s,%s,%lld,%s,%lld,%lld,%lld,%d,%d,%s,%s,%s,%s,%s,%d,%s,%s,%s,",
          csv_field(suite.name).c_str(), dims_name(s).c_str(), static_cast<long long>(s.m),
          static_cast<long long>(s.n), static_cast<long long>(s.k), op_name(s).c_str(),
          dtype_name(s.dtype), static_cast<long long>(s.batch), ld_name(s.ld),
          static_cast<long long>(r.layout.lda), static_cast<long long>(r.layout.ldb),
          static_cast<long long>(r.layout.ldc), options_.beta_one ? 1 : 0, r.sets,
          path_name(p.path), m.name, csv_number(st.median_us, 3).c_str(),
          csv_number(st.min_us, 3).c_str(), csv_number(st.p90_us, 3).c_str(), st.samples,
          host ? "" : csv_number(tflops(call, st.median_us), 2).c_str(),
          csv_number(rate / cublas_rate, 4).c_str(),
          host ? csv_number(p.host_over_cublas.median_us, 3).c_str() : "");
      std::fprintf(
          csv_, "%s,%s,%s,%s,%s,%u,%u,%s,%s,", csv_field(join(p.ran)).c_str(),
          csv_field(p.kernel).c_str(), csv_field(p.reason).c_str(),
          std::isnan(p.rel_err) ? "" : format("%.3e", p.rel_err).c_str(),
          p.path == Path::kCublas || p.path == Path::kBaseline ? ""
          : p.mismatch                                         ? "1"
                                                               : "0",
          p.path == Path::kCublas && r.cublas_sm_clock_mhz ? r.cublas_sm_clock_mhz : r.sm_clock_mhz,
          max_clock_mhz_, mode_name(options_), csv_field(gpu_name_).c_str());
      const double path_tbps = terabytes_per_second(bytes, st.median_us);
      std::fprintf(csv_, "%.0f,%s,%s,%s,%s,%s\n", bytes,
                   host ? "" : csv_number(path_tbps, 4).c_str(),
                   host ? "" : csv_number(path_tbps / copy_tbps_, 4).c_str(),
                   csv_number(copy_tbps_, 4).c_str(),
                   host ? csv_number(p.host_over_bare.median_us, 3).c_str() : "",
                   csv_number(over_baseline(r, p, m.stats), 4).c_str());
    }
  std::fflush(csv_);
}

void Report::end_suite(const Suite& suite, const SmClock& clock) {
  std::printf("-- end of %s: SM clock %s\n", suite.name.c_str(), clock.describe().c_str());
  std::fflush(stdout);
}

}  // namespace bench
