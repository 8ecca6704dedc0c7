// SPDX-License-Identifier: MIT
// The host functions the kernels reach the driver through, for the
// emulation build (instead of tma_encode.cpp, persistent_launch.cpp,
// decode/enqueue.cpp and pack.cu's transposed copy):
// the families' own parameter builders and launchers then run unchanged,
// with the virtual GPU as the device.
#include <algorithm>
#include <cstring>

#include "emu/machine.h"
#include "emu/tensor_map.h"
#include "kernels/common/kernel_view.h"
#include "kernels/common/pack.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/decode/config.h"
#include "kernels/decode/variants.h"

namespace bwgemm {

// The same call as tma_encode.cpp makes to cuTensorMapEncodeTiled.
bool encode_tma_map(const TmaMapSpec& s, CUtensorMap* out) {
  const cuuint64_t dims[3] = {s.dims[0], s.dims[1], s.dims[2]};
  const cuuint64_t strides[2] = {s.strides[0], s.strides[1]};
  const cuuint32_t box[3] = {s.box[0], s.box[1], s.box[2]};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  return emu::encode_tensor_map_tiled(out, s.dtype, 3, const_cast<void*>(s.base), dims, strides,
                                      box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                      s.swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

namespace {

// A kernel and its parameter block, passed by value to every thread like a
// __grid_constant__ parameter.
template <class Kernel, class Params>
struct Launch {
  Kernel kernel;
  const Params* params;

  static void run(void* arg) {
    const auto* l = static_cast<const Launch*>(arg);
    l->kernel(*l->params);
  }
};

emu::RunResult run_grid(const emu::LaunchConfig& config, void (*run)(void*), void* launch) {
  const emu::RunResult result = emu::run(config, emu::device_options(), run, launch);
  emu::set_last_run(result);
  return result;
}

}  // namespace

// As persistent_launch.cpp: min(tiles, co-resident clusters) clusters, where
// the virtual GPU holds one CTA per SM (a configuration built for two per SM
// gets half its real grid: more tiles per cluster, the same code). The run's
// result is emu::last_run().
cudaError_t launch_persistent(const KernelVariant& v, const GemmParams& params,
                              const DeviceCaps& caps, int sm_count_target, cudaStream_t, bool) {
  const int clusters = caps.sm_count / v.cluster_size;
  if (clusters <= 0) return cudaErrorInvalidConfiguration;
  const int64_t grid =
      persistent_clusters(params.scheduler.unit_count(), clusters, sm_count_target, v.cluster_size);
  if (grid <= 0) return cudaErrorInvalidConfiguration;
  emu::LaunchConfig config;
  config.clusters = uint32_t(grid);
  config.cluster_size = uint32_t(v.cluster_size);
  config.threads = uint32_t(v.threads);
  config.smem_bytes = v.smem_bytes;
  if (params.split.arrivals != nullptr)
    std::memset(params.split.arrivals, 0, size_t(params.split.arrival_count) * sizeof(uint32_t));
  Launch<KernelEntry, GemmParams> launch{v.kernel, &params};
  return run_grid(config, launch.run, &launch).ok ? cudaSuccess : cudaErrorLaunchFailure;
}

// As pack.cu's kernel, on the host, whose memory the virtual GPU's is.
cudaError_t enqueue_transpose16(const Matrix16& m, void* dst, cudaStream_t) {
  const auto* src = static_cast<const uint16_t*>(m.base);
  auto* out = static_cast<uint16_t*>(dst);
  for (int64_t col = 0; col < m.cols; ++col)
    for (int64_t row = 0; row < m.rows; ++row) out[row * m.cols + col] = src[col * m.ld + row];
  return cudaSuccess;
}

namespace decode {

// One CTA per cluster, as the GPU launch has none.
cudaError_t enqueue_decode(DecodeKernel kernel, unsigned ctas, uint32_t smem_bytes,
                           const DecodeParams& params, bool, cudaStream_t) {
  emu::LaunchConfig config;
  config.clusters = ctas;
  config.cluster_size = 1;
  config.threads = kThreads;
  config.smem_bytes = smem_bytes;
  Launch<DecodeKernel, DecodeParams> launch{kernel, &params};
  return run_grid(config, launch.run, &launch).ok ? cudaSuccess : cudaErrorLaunchFailure;
}

}  // namespace decode

}  // namespace bwgemm
