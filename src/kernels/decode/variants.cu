// SPDX-License-Identifier: MIT
// Every instantiation of the decode kernel: 4 type pairs x kShapeCount shapes.
#include "kernels/decode/decode_kernel.cuh"
#include "kernels/decode/variant_table.h"

namespace bwgemm::decode {
namespace {

struct GpuEntry {
  template <class Cfg>
  static constexpr DecodeKernel of() {
    return decode_kernel<Cfg>;
  }
};

}  // namespace

DecodeKernel kernel_for(DType ab, DType out, int shape) {
  return pick_kernel<GpuEntry>(ab, out, shape);
}

}  // namespace bwgemm::decode
