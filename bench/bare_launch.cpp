// SPDX-License-Identifier: MIT
#include "bare_launch.h"

#include <cstring>

#include "core/device_caps.h"
#include "kernels/common/kernel_launch.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/family.h"
#include "kernels/sm100/variants.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/family.h"
#include "kernels/sm90/variants.h"

namespace bench {
namespace {

// A family's catalog and configuration names, by the path
// bwgemmGetLastDispatch reports.
struct Family {
  const char* prefix;
  const bwgemm::VariantCatalog* catalog;
  int config_count;
  const char* (*config_name)(int config);
};

bool family_of(bwgemmPath_t path, Family* out) {
  switch (path) {
    case BWGEMM_PATH_SM90:
      *out = {"sm90", &bwgemm::sm90::kCatalog, bwgemm::sm90::kConfigCount,
              bwgemm::sm90::config_name};
      return true;
    case BWGEMM_PATH_SM100:
      *out = {"sm100", &bwgemm::sm100::kCatalog, bwgemm::sm100::kConfigCount,
              bwgemm::sm100::config_name};
      return true;
    default: return false;
  }
}

int config_named(const Family& family, const char* name) {
  for (int c = 0; c < family.config_count; ++c)
    if (std::strcmp(family.config_name(c), name) == 0) return c;
  return -1;
}

bwgemm::Scalar host_scalar(float v) { return {false, v, nullptr}; }

// The problem bwgemm decodes from the bench's bwgemmGemmEx (or
// StridedBatchedEx) call, or from its cublasLtMatmul with a bias.
bwgemm::GemmProblem problem_of(const GemmArgs& g) {
  const Shape& s = g.shape;
  const bwgemm::DType type = s.dtype == DType::kF16 ? bwgemm::DType::F16 : bwgemm::DType::BF16;
  bwgemm::GemmProblem p{};
  p.ab_type = type;
  p.c_type = type;
  p.trans_a = s.op_a != CUBLAS_OP_N;
  p.trans_b = s.op_b != CUBLAS_OP_N;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  p.a = g.a;
  p.b = g.b;
  p.c = p.d = g.c;
  p.lda = g.layout.lda;
  p.ldb = g.layout.ldb;
  p.ldc = p.ldd = g.layout.ldc;
  p.stride_a = g.layout.a_elems;
  p.stride_b = g.layout.b_elems;
  p.stride_c = p.stride_d = g.layout.c_elems;
  p.batch = s.batch;
  p.alpha = host_scalar(g.alpha);
  p.beta = host_scalar(g.beta);
  p.epilogue = {bwgemm::Activation::None, g.bias, type, 0};
  p.stream = g.stream;
  p.sm_count_target = 0;  // the bench never sets one on its handle
  return p;
}

}  // namespace

struct BareLaunch::Prepared {
  bwgemm::GemmParams params;
  bwgemm::PersistentConfig config;
};

BareLaunch::BareLaunch(const bwgemmDispatchInfo_t& ran, const GemmArgs& args) {
  Family family;
  if (!family_of(ran.path, &family)) {
    description_ = "none: the kernel path forwarded the call";
    return;
  }
  const std::string name = ran.kernel ? ran.kernel : "";
  const int config = config_named(family, name.c_str());
  if (config < 0) {
    description_ = "none: no configuration named '" + name + "' in this build";
    return;
  }
  bwgemm::DeviceCaps caps{};
  if (!bwgemm::current_device_caps(&caps)) {
    description_ = "none: the device's capabilities could not be read";
    return;
  }
  auto prepared = std::make_unique<Prepared>();
  const bwgemm::KernelVariant* variant = nullptr;
  const bwgemm::GemmProblem p = problem_of(args);
  const bwgemmReason_t reason = bwgemm::build_launch(*family.catalog, p, caps, config, {nullptr, 0},
                                                     &variant, &prepared->params);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) {
    description_ = std::string("none: ") + bwgemmGetReasonString(reason);
    return;
  }
  // The host suite repeats one call, which follows the last (launch_order.h).
  const cudaError_t err = bwgemm::configure_persistent(
      *variant, prepared->params, caps, p.sm_count_target, p.stream, true, &prepared->config);
  if (err != cudaSuccess) {
    description_ = std::string("none: ") + cudaGetErrorName(err);
    return;
  }
  prepared_ = std::move(prepared);
  description_ = std::string(family.prefix) + ":" + name;
}

BareLaunch::~BareLaunch() = default;

void BareLaunch::enqueue() const {
  BENCH_CUDA(bwgemm::enqueue_persistent(prepared_->config, prepared_->params));
}

}  // namespace bench
