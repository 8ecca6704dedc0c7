// SPDX-License-Identifier: MIT
// The launcher every family shares: from a problem to an enqueued kernel,
// through one kernel view, one variant and one parameter block.
#pragma once

#include <cstdint>

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/kernel_family.h"

namespace bwgemm {

// What the shared launcher needs of a family's variant table.
struct VariantCatalog {
  const char* family_name;  // for warnings
  // NULL when `config` is not compiled for the key's layout.
  const KernelVariant* (*select)(int config, const VariantKey& key);
  TileShape (*tile_shape)(int config, DType out_type);
  // The family's kernel releases its dependents as soon as its own wait for
  // the previous grid is over (launch_order.h).
  bool releases_dependents;
};

// The variant and parameter block launch_gemm enqueues for `p`:
// KERNEL_SELECTED, or the reason the call goes to cuBLAS (UNSUPPORTED_LAYOUT;
// LAUNCH_FAILED, with a warning, when the driver rejects a TMA map). Exposed
// so that bwgemm-bench can build a launch ahead of time. `caps`: the device
// it is for.
bwgemmReason_t build_launch(const VariantCatalog& catalog, const GemmProblem& p,
                            const DeviceCaps& caps, int config, ErrorFlag error_flag,
                            const KernelVariant** variant, GemmParams* params);

// Enqueues a launch build_launch made for `p` on p.stream, as a programmatic
// dependent where the variant allows and the grid follows one that releases
// its dependents early: `after_own_grid` (the caller has just enqueued such
// a grid on p.stream) or as launch_order.h tells. Records the grid there.
cudaError_t enqueue_built(const VariantCatalog& catalog, const KernelVariant& v,
                          const GemmParams& params, const GemmProblem& p, const DeviceCaps& caps,
                          bool after_own_grid);

// kEnqueued; kForward with UNSUPPORTED_LAYOUT when no load plan takes the
// operands' layout (launch_params.h), or with LAUNCH_FAILED (and a warning)
// when the driver rejects a TMA map or the launch. Nothing is enqueued then.
LaunchResult launch_gemm(const VariantCatalog& catalog, const GemmProblem& p,
                         const DeviceCaps& caps, int config, ErrorFlag error_flag);

}  // namespace bwgemm
