// SPDX-License-Identifier: MIT
#include "dispatch/tuned_policy.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include <cuda_runtime_api.h>

#include "core/env_config.h"
#include "core/log.h"
#include "forward/real_cublas.h"
#include "kernels/common/launch_params.h"

#ifndef BWGEMM_BUILD_ID
#error "BWGEMM_BUILD_ID is defined for this file by CMakeLists.txt"
#endif

namespace bwgemm {
namespace {

bool read_small_file(const char* path, std::string* text, std::string* why) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return *why = std::string("cannot open it: ") + std::strerror(errno), false;
  text->clear();
  char buffer[4096];
  ssize_t got = 0;
  while ((got = read(fd, buffer, sizeof buffer)) > 0 && text->size() <= kMaxTunedPolicyBytes)
    text->append(buffer, size_t(got));
  const int error = errno;
  close(fd);
  if (got < 0) return *why = std::string("cannot read it: ") + std::strerror(error), false;
  if (text->size() > kMaxTunedPolicyBytes) return *why = "larger than 1 MiB", false;
  return true;
}

const KernelFamily* family_named(const KernelFamilyList& families, const std::string& name) {
  for (int i = 0; i < families.count; ++i)
    if (name == families.items[i]->name) return families.items[i];
  return nullptr;
}

int config_named(const KernelFamily& family, const std::string& name) {
  for (int c = 0; c < family.config_count; ++c)
    if (name == family.config_name(c)) return c;
  return -1;
}

bool in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

// The rules of BWGEMM_POLICY_FILE, checked once; NULL when there are none.
const TunedRules* process_rules() {
  static TunedRules* rules = [] {
    const char* path = env_config().policy_file;
    if (path == nullptr) return static_cast<TunedRules*>(nullptr);
    TunedPolicyContext context{BWGEMM_BUILD_ID, "", registered_kernel_families()};
    const RealCublas* real = real_cublas();
    int major = 0, minor = 0, patch = 0;
    if (real != nullptr && real->get_property != nullptr &&
        real->get_property(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
        real->get_property(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
        real->get_property(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
      context.cublas =
          std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    auto* loaded = new TunedRules;
    std::string why;
    if (!load_tuned_policy(path, context, loaded, &why)) {
      log_warning("BWGEMM_POLICY_FILE=%s ignored: %s; the built-in selection decides", path,
                  why.c_str());
      delete loaded;
      return static_cast<TunedRules*>(nullptr);
    }
    return loaded;
  }();
  return rules;
}

}  // namespace

bool load_tuned_policy(const char* path, const TunedPolicyContext& context, TunedRules* out,
                       std::string* why) {
  std::string text;
  TunedPolicy policy;
  if (!read_small_file(path, &text, why) || !parse_tuned_policy(text, &policy, why)) return false;
  if (policy.build != context.build)
    return *why = "measured with bwgemm build " + policy.build + ", this is " + context.build,
           false;
  if (context.cublas.empty()) return *why = "the cuBLAS version cannot be read", false;
  if (policy.cublas != context.cublas)
    return *why = "measured against cuBLAS " + policy.cublas + ", this is " + context.cublas, false;
  TunedRules rules;
  rules.device = policy.device;
  for (size_t i = 0; i < policy.rules.size(); ++i) {
    const TunedRule& r = policy.rules[i];
    const std::string number = "rule " + std::to_string(i + 1);
    const KernelFamily* family = family_named(context.families, r.family);
    if (family == nullptr) return *why = number + ": no kernel family " + r.family, false;
    const int config = r.choice == "cublas" ? -1 : config_named(*family, r.choice);
    if (config < 0 && r.choice != "cublas")
      return *why = number + ": no " + r.family + " configuration " + r.choice, false;
    TunedRules::Rule rule{family->path, r.type, r.trans_a, r.trans_b, {}, {}, config, ""};
    std::memcpy(rule.min, r.min, sizeof rule.min);
    std::memcpy(rule.max, r.max, sizeof rule.max);
    rule.reason = "policy file " + number +
                  (config < 0 ? ": cuBLAS measured faster" : ": measured faster than cuBLAS");
    rules.rules.push_back(std::move(rule));
  }
  *out = std::move(rules);
  return true;
}

const TunedRules* tuned_rules(int device) {
  const TunedRules* rules = process_rules();
  if (rules == nullptr || device < 0) return nullptr;
  // Whether each device's name is the file's, asked once per device.
  static std::once_flag asked[kMaxDevices];
  static bool matches[kMaxDevices];
  if (device >= kMaxDevices) return nullptr;
  std::call_once(asked[device], [&] {
    cudaDeviceProp prop{};
    matches[device] =
        cudaGetDeviceProperties(&prop, device) == cudaSuccess && rules->device == prop.name;
  });
  return matches[device] ? rules : nullptr;
}

bool tuned_choice(const TunedRules& rules, const KernelFamily& family, const GemmProblem& p,
                  ConfigChoice* out) {
  if (p.ab_type != p.c_type || p.ab_type == DType::F32 || p.batch != 1) return false;
  if (!tma_addressable(p.a, p.lda, 0, p.ab_type) || !tma_addressable(p.b, p.ldb, 0, p.ab_type) ||
      !tma_addressable(p.d, p.ldd, 0, p.c_type))
    return false;
  const int64_t dims[3] = {p.m, p.n, p.k};
  for (const TunedRules::Rule& r : rules.rules) {
    if (r.path != family.path || r.type != p.ab_type || r.trans_a != p.trans_a ||
        r.trans_b != p.trans_b)
      continue;
    bool inside = true;
    for (int d = 0; d < 3; ++d) inside = inside && in_range(dims[d], r.min[d], r.max[d]);
    if (!inside) continue;
    *out = {r.config, r.reason.c_str()};
    return true;
  }
  return false;
}

}  // namespace bwgemm
