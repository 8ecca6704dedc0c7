// SPDX-License-Identifier: MIT
#include "kernels/sm100/launch.h"

#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {

cudaError_t enqueue(const GemmProblem& p, const DeviceCaps& caps, uint32_t* error_flag) {
  const KernelVariant& v = select_variant(p.ab_type, p.c_type, p.trans_b, !p.trans_a);
  TileShape shape = tile_shape();
  shape.out_box_cols = 128 / int(dtype_size(p.c_type));
  GemmParams params;
  if (!make_launch_params(p, shape, &params)) return cudaErrorInvalidValue;
  params.error_flag = error_flag;
  return launch_persistent(v, params, caps, p.stream);
}

}  // namespace bwgemm::sm100
