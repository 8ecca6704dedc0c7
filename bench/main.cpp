// SPDX-License-Identifier: MIT
// bwgemm-bench: bwgemm's GEMM paths against the real cuBLAS, side by side in
// one process. See bench/README.md for what each suite and column means.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common.h"
#include "gpu_info.h"
#include "measure.h"
#include "output.h"
#include "real_cublas.h"
#include "suites.h"
#include "tune.h"

namespace bench {
namespace {

constexpr int kMinReps = 20;

struct CommandLine {
  std::vector<Suite> suites;
  std::vector<Shape> shapes;
  Options options;
  std::string csv = "bwgemm-bench.csv";
  std::string tune_out;            // --tune FILE
  std::string tune_grid = "full";  // --tune-grid
  std::string tune_child_result;   // --tune-child GRID --tune-result FILE (internal)
  bool shape_rates = false;        // --rates
  bool list = false;
  bool help = false;
};

void print_usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: bwgemm-bench [--suite NAMES] [--shape m,n,k[,op][,dtype][,batch][,vs=MxNxK]]...\n"
      "                    [--rates] [--reps N] [--burst] [--beta1] [--csv FILE] | --list | "
      "--help\n"
      "       bwgemm-bench --tune FILE [--tune-grid full|quick] [--reps N]\n"
      "\n"
      "Times bwgemmGemmEx under the AUTO policy (\"dispatch\") and FORCE_KERNEL (\"kernel\")\n"
      "against the real cuBLAS called directly, interleaved on the same buffers, on CUDA\n"
      "device 0 (choose with CUDA_VISIBLE_DEVICES).\n"
      "\n"
      "  --suite NAMES  comma-separated suites, or \"all\" (the default without --shape);\n"
      "                 --list shows them and their shapes\n"
      "  --shape SPEC   an ad-hoc shape, repeatable; op NN|NT|TN|TT (default TN), dtype\n"
      "                 fp16|bf16 (default fp16), batch (default 1; > 1 runs the\n"
      "                 strided-batched entry points), vs=MxNxK (a baseline: cuBLAS on\n"
      "                 that call, same op and dtype, minimal leading dimensions, timed\n"
      "                 in the same rounds; one matrix); runs as suite \"shape\"\n"
      "  --rates        the --shape shapes also get eager, graph and model rates\n"
      "                 (streams of calls, as the small, decode and models suites)\n"
      "  --reps N       timed calls per path and shape, at least %d (default %d)\n"
      "  --burst        2 s idle before each shape (boost clocks) instead of sustained\n"
      "                 back-to-back load; the two differ by ~15%%, compare like with like\n"
      "  --beta1        beta = 1 instead of 0 (C is read and accumulated)\n"
      "  --csv FILE     where to write the CSV (default bwgemm-bench.csv); plot it with\n"
      "                 bench/plot.py FILE\n"
      "  --tune FILE    measure every kernel configuration against cuBLAS on this GPU\n"
      "                 (decode and small shapes; a few minutes) and write the selection\n"
      "                 policy libbwgemm reads from BWGEMM_POLICY_FILE=FILE\n"
      "  --tune-grid G  the shapes --tune measures: full (default) or quick (two shapes)\n"
      "\n"
      "Exit status: 0 done (also when there is no GPU), 1 a CUDA or cuBLAS call failed,\n"
      "2 bad command line, 3 some path's output disagreed with cuBLAS (MISMATCH).\n",
      kMinReps, Options{}.reps);
}

bool parse_command_line(int argc, char** argv, CommandLine* cl) {
  bool suites_named = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    // "--name=value" and "--name value" alike.
    const size_t eq = arg.find('=');
    const bool inline_value = arg.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    auto take_value = [&]() {
      if (inline_value) return true;
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bwgemm-bench: %s needs a value\n", arg.c_str());
        return false;
      }
      value = argv[++i];
      return true;
    };
    std::string error;
    if (arg == "--help" || arg == "-h") {
      cl->help = true;
    } else if (arg == "--list") {
      cl->list = true;
    } else if (arg == "--burst") {
      cl->options.burst = true;
    } else if (arg == "--rates") {
      cl->shape_rates = true;
    } else if (arg == "--beta1") {
      cl->options.beta_one = true;
    } else if (arg == "--suite") {
      if (!take_value()) return false;
      if (!select_suites(value, &cl->suites, &error)) {
        std::fprintf(stderr, "bwgemm-bench: %s\n", error.c_str());
        return false;
      }
      suites_named = true;
    } else if (arg == "--shape") {
      Shape s;
      if (!take_value()) return false;
      if (!parse_shape(value, &s, &error)) {
        std::fprintf(stderr, "bwgemm-bench: %s\n", error.c_str());
        return false;
      }
      cl->shapes.push_back(s);
    } else if (arg == "--reps") {
      if (!take_value()) return false;
      char* end = nullptr;
      const long reps = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || reps < kMinReps || reps > 100000) {
        std::fprintf(stderr, "bwgemm-bench: --reps wants a count from %d to 100000\n", kMinReps);
        return false;
      }
      cl->options.reps = static_cast<int>(reps);
    } else if (arg == "--csv") {
      if (!take_value()) return false;
      cl->csv = value;
    } else if (arg == "--tune" || arg == "--tune-grid" || arg == "--tune-child" ||
               arg == "--tune-result") {
      if (!take_value()) return false;
      if (arg != "--tune" && arg != "--tune-result" && !tune_grid_known(value)) {
        std::fprintf(stderr, "bwgemm-bench: %s wants full or quick\n", arg.c_str());
        return false;
      }
      if (arg == "--tune") cl->tune_out = value;
      if (arg == "--tune-grid" || arg == "--tune-child") cl->tune_grid = value;
      if (arg == "--tune-result") cl->tune_child_result = value;
    } else {
      std::fprintf(stderr, "bwgemm-bench: unknown argument '%s' (see --help)\n", argv[i]);
      return false;
    }
  }
  if (cl->shape_rates && cl->shapes.empty()) {
    std::fprintf(stderr, "bwgemm-bench: --rates applies to --shape shapes\n");
    return false;
  }
  if (!cl->shapes.empty()) {
    Suite adhoc;
    adhoc.name = "shape";
    adhoc.summary = "shapes from --shape";
    adhoc.shapes = cl->shapes;
    adhoc.rates = cl->shape_rates;
    cl->suites.push_back(adhoc);
  } else if (!suites_named) {
    std::string unused;
    select_suites("all", &cl->suites, &unused);
  }
  return true;
}

int run(const CommandLine& cl) {
  // Before anything else touches CUDA: a machine without a GPU (or driver) is
  // a normal place to build and list, not an error.
  int devices = 0;
  const cudaError_t err = cudaGetDeviceCount(&devices);
  if (err != cudaSuccess || devices == 0) {
    std::printf("bwgemm-bench: no CUDA GPU found (cudaGetDeviceCount: %s); nothing to benchmark\n",
                err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return kExitOk;
  }
  BENCH_CUDA(cudaSetDevice(0));
  const GpuInfo gpu = query_gpu(0);
  // The real cuBLAS is loaded before the first bwgemm call, so that bwgemm's
  // forwarder finds this same copy.
  const RealCublas cublas = load_real_cublas();
  const SmClock clock(gpu.pci_bus_id);
  Bench bench(cublas, gpu, clock, cl.options);
  const CopyBandwidth copy = bench.measure_copy_bandwidth();
  print_run_header(gpu, cublas, clock, cl.options, copy);

  Report report(cl.csv, gpu, cl.options, clock.max(), copy.tbps);
  for (const Suite& suite : cl.suites) {
    report.begin_suite(suite);
    for (const Shape& shape : suite.shapes)
      report.add(suite, suite.kind == SuiteKind::kHostCost
                            ? bench.run_host_cost(shape)
                            : bench.run_throughput(shape, suite.rates));
    report.end_suite(suite, clock);
  }
  std::printf("\nbwgemm-bench: wrote %s; %d shape(s) flagged MISMATCH\n", cl.csv.c_str(),
              report.mismatches());
  return report.mismatches() ? kExitMismatch : kExitOk;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::CommandLine cl;
  if (!bench::parse_command_line(argc, argv, &cl)) return bench::kExitUsage;
  if (cl.help) {
    bench::print_usage(stdout);
    return bench::kExitOk;
  }
  if (cl.list) {
    bench::print_suite_list();
    return bench::kExitOk;
  }
  if (!cl.tune_child_result.empty())
    return bench::run_tune_child(cl.tune_grid, cl.tune_child_result, cl.options);
  if (!cl.tune_out.empty()) {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return bench::kExitFailure;
    self[n] = '\0';
    return bench::run_tune(self, cl.tune_grid, cl.tune_out, cl.options);
  }
  return bench::run(cl);
}
