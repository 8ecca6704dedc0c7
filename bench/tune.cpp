// SPDX-License-Identifier: MIT
#include "tune.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "common.h"
#include "core/tuned_policy_file.h"
#include "gpu_info.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/variants.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/variants.h"
#include "real_cublas.h"

extern char** environ;

namespace bench {
namespace {

// A configuration is chosen where it beats cuBLAS by more than the noise.
constexpr double kMinSpeedup = 1.03;

std::vector<Shape> grid_shapes(const std::string& grid) {
  std::vector<Shape> shapes;
  auto add = [&](int64_t m, int64_t n, int64_t k, cublasOperation_t op_a, DType dtype) {
    Shape s;
    s.m = m, s.n = n, s.k = k;
    s.op_a = op_a;
    s.op_b = CUBLAS_OP_N;
    s.dtype = dtype;
    s.ld = LdMode::kPad8;
    shapes.push_back(s);
  };
  if (grid == "quick") {
    add(4096, 16, 4096, CUBLAS_OP_T, DType::kBF16);
    add(1024, 1024, 1024, CUBLAS_OP_T, DType::kBF16);
    return shapes;
  }
  for (DType dtype : {DType::kBF16, DType::kF16})
    for (cublasOperation_t op_a : {CUBLAS_OP_T, CUBLAS_OP_N}) {
      // Decode: a weight of 2048 x 4096, 4096 x 4096, 14336 x 4096 or
      // 4096 x 14336, read once.
      for (auto [m, k] :
           {std::pair<int64_t, int64_t>{2048, 4096}, {4096, 4096}, {14336, 4096}, {4096, 14336}})
        for (int64_t n : {1, 16, 64}) add(m, n, k, op_a, dtype);
      // Small and skinny.
      for (int64_t e : {512, 1024, 2048}) add(e, e, e, op_a, dtype);
      add(14336, 128, 4096, op_a, dtype);
      add(4096, 256, 4096, op_a, dtype);
    }
  return shapes;
}

std::string key_of(const Shape& s) {
  return dims_name(s) + " " + op_name(s) + " " + (s.dtype == DType::kBF16 ? "bf16" : "fp16");
}

struct Measured {
  Shape shape;
  double cublas_us = 0;
  // Each configuration's kernel time, where its calls ran on it and matched.
  std::map<std::string, double> kernel_us;
};

// Runs this executable as a tune child for one configuration; its results
// into `results` (by shape key).
bool run_child(const std::string& self, const std::string& grid, const std::string& config,
               const std::string& config_variable, const std::string& result_path,
               const Options& options, std::map<std::string, Measured>* results) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "BWGEMM_", 7) != 0) env.emplace_back(*e);
  env.push_back(config_variable + "=" + config);
  const std::string reps = std::to_string(options.reps);
  std::vector<std::string> args = {self,        "--tune-child", grid, "--tune-result",
                                   result_path, "--reps",       reps};
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  for (std::string& e : env) envp.push_back(e.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) {
    std::fprintf(stderr, "bwgemm-bench: cannot start %s\n", self.c_str());
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (!WIFEXITED(status) ||
      (WEXITSTATUS(status) != kExitOk && WEXITSTATUS(status) != kExitMismatch)) {
    std::fprintf(stderr, "bwgemm-bench: the measurement of %s failed\n", config.c_str());
    return false;
  }
  std::ifstream in(result_path);
  std::string line;
  const std::vector<Shape> shapes = grid_shapes(grid);
  for (size_t i = 0; i < shapes.size() && std::getline(in, line); ++i) {
    std::istringstream fields(line);
    double cublas_us = 0, kernel_us = 0;
    std::string ran;
    int mismatch = 1;
    fields >> cublas_us >> kernel_us >> ran >> mismatch;
    Measured& m = (*results)[key_of(shapes[i])];
    m.shape = shapes[i];
    if (m.cublas_us == 0 || cublas_us < m.cublas_us) m.cublas_us = cublas_us;
    if (ran == config && !mismatch && kernel_us > 0) m.kernel_us[config] = kernel_us;
  }
  return true;
}

bwgemm::TunedRule rule_for(const std::string& family, const Shape& s, const std::string& choice) {
  bwgemm::TunedRule r;
  r.family = family;
  r.type = s.dtype == DType::kBF16 ? bwgemm::DType::BF16 : bwgemm::DType::F16;
  r.trans_a = s.op_a != CUBLAS_OP_N;
  r.trans_b = s.op_b != CUBLAS_OP_N;
  // Each rule covers the octave up to the measured size: (v / 2, v].
  const int64_t dims[3] = {s.m, s.n, s.k};
  for (int d = 0; d < 3; ++d) {
    r.min[d] = dims[d] / 2 + 1;
    r.max[d] = dims[d];
  }
  r.choice = choice;
  return r;
}

}  // namespace

bool tune_grid_known(const std::string& grid) { return grid == "full" || grid == "quick"; }

int run_tune(const std::string& self, const std::string& grid, const std::string& out_path,
             const Options& options) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("bwgemm-bench: no CUDA GPU found; nothing to tune\n");
    return kExitOk;
  }
  BENCH_CUDA(cudaSetDevice(0));
  const GpuInfo gpu = query_gpu(0);
  std::string family, config_variable;  // the variable that names a configuration
  std::vector<std::string> configs;
  if (gpu.cc_major == 9 && gpu.cc_minor == 0) {
    family = "sm90";
    config_variable = "BWGEMM_SM90_CONFIG";
    for (int c = 0; c < bwgemm::sm90::kFamilyConfigCount; ++c)
      configs.emplace_back(bwgemm::sm90::config_name(c));
  } else if (gpu.cc_major == 10 && (gpu.cc_minor == 0 || gpu.cc_minor == 3)) {
    family = "sm100";
    config_variable = "BWGEMM_SM100_CONFIG";
    for (int c = 0; c < bwgemm::sm100::kConfigCount; ++c)
      configs.emplace_back(bwgemm::sm100::config_name(c));
  } else {
    std::printf("bwgemm-bench: %s (sm_%d%d) runs no bwgemm kernel; nothing to tune\n",
                gpu.name.c_str(), gpu.cc_major, gpu.cc_minor);
    return kExitOk;
  }
  const RealCublas cublas = load_real_cublas();
  char dir[] = "/tmp/bwgemm-tune-XXXXXX";
  if (mkdtemp(dir) == nullptr) {
    std::perror("bwgemm-bench: mkdtemp");
    return kExitFailure;
  }
  std::printf("bwgemm-bench --tune: %s, cuBLAS %s, %zu %s configurations, grid \"%s\"\n",
              gpu.name.c_str(), cublas.version.c_str(), configs.size(), family.c_str(),
              grid.c_str());
  std::map<std::string, Measured> results;
  bool ok = true;
  for (const std::string& config : configs) {
    const std::string path = std::string(dir) + "/" + config + ".txt";
    std::printf("  measuring %s ...\n", config.c_str());
    std::fflush(stdout);
    ok = run_child(self, grid, config, config_variable, path, options, &results) && ok;
    std::remove(path.c_str());
  }
  rmdir(dir);
  if (!ok) return kExitFailure;

  bwgemm::TunedPolicy policy;
  policy.device = gpu.name;
  policy.cublas = cublas.version;
  policy.build = BWGEMM_BUILD_ID;
  std::printf("\n%-22s %-8s %10s  %-34s %s\n", "shape", "", "cuBLAS us", "fastest configuration",
              "vs cuBLAS -> choice");
  for (const Shape& s : grid_shapes(grid)) {
    const Measured& m = results[key_of(s)];
    // Against cuBLAS's best time in any of the processes: a slow cuBLAS
    // reading in one process (seen on an H100: a 512^3 call at 4x its usual
    // time) must not make a configuration look faster.
    std::string best;
    double speedup = 0;
    for (const auto& [config, us] : m.kernel_us)
      if (m.cublas_us / us > speedup) best = config, speedup = m.cublas_us / us;
    const std::string choice = speedup >= kMinSpeedup ? best : "cublas";
    std::printf("%-22s %-8s %10.2f  %-34s %5.2fx -> %s\n", dims_name(s).c_str(),
                (op_name(s) + (s.dtype == DType::kBF16 ? " bf16" : " fp16")).c_str(), m.cublas_us,
                best.empty() ? "(none ran)" : best.c_str(), speedup, choice.c_str());
    policy.rules.push_back(rule_for(family, s, choice));
  }
  std::ofstream out(out_path, std::ios::trunc);
  out << bwgemm::format_tuned_policy(policy);
  if (!out.good()) {
    std::fprintf(stderr, "bwgemm-bench: cannot write %s\n", out_path.c_str());
    return kExitFailure;
  }
  std::printf("\nbwgemm-bench: wrote %s (%zu rules); use it with BWGEMM_POLICY_FILE=%s\n",
              out_path.c_str(), policy.rules.size(), out_path.c_str());
  return kExitOk;
}

int run_tune_child(const std::string& grid, const std::string& result_path,
                   const Options& options) {
  BENCH_CUDA(cudaSetDevice(0));
  const GpuInfo gpu = query_gpu(0);
  const RealCublas cublas = load_real_cublas();
  const SmClock clock(gpu.pci_bus_id);
  Bench bench(cublas, gpu, clock, options);
  std::FILE* out = std::fopen(result_path.c_str(), "w");
  if (out == nullptr) return kExitFailure;
  for (const Shape& s : grid_shapes(grid)) {
    const ShapeResult r = bench.run_throughput(s, false);
    const PathResult *cublas_path = nullptr, *kernel_path = nullptr;
    for (const PathResult& p : r.paths) {
      if (p.path == Path::kCublas) cublas_path = &p;
      if (p.path == Path::kKernel) kernel_path = &p;
    }
    std::fprintf(out, "%.4f %.4f %s %d\n", cublas_path->device.median_us,
                 kernel_path->device.median_us,
                 kernel_path->kernel.empty() ? "-" : kernel_path->kernel.c_str(),
                 kernel_path->mismatch ? 1 : 0);
  }
  return std::fclose(out) == 0 ? kExitOk : kExitFailure;
}

}  // namespace bench
