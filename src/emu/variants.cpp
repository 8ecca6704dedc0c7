// SPDX-License-Identifier: MIT
// Both kernel families' and the decode kernel's instantiations for the emulation build: the same
// kernel bodies, configurations and variant table as variants_*.cu, with host
// entry points that the virtual GPU's threads call.
#include "kernels/sm100/variants.h"
#include "kernels/common/variant_table.cuh"
#include "kernels/decode/decode_kernel.cuh"
#include "kernels/decode/variant_table.h"
#include "kernels/sm100/gemm_kernel.cuh"
#include "kernels/sm90/gemm_kernel.cuh"
#include "kernels/sm90/variants.h"

// An emulated family over namespace `ns`: its configurations, its kernel
// body, and its variants_<name>() for every type pair.
#define BWGEMM_EMULATED_FAMILY_(ns)                                        \
  namespace bwgemm::ns {                                                   \
  namespace {                                                              \
  struct EmulatedFamily {                                                  \
    template <class AB, class Out, bool kRowMN, bool kColMN, int kCfg>     \
    using Config = ns::ConfigFor<AB, Out, kRowMN, kColMN, kCfg>;           \
    static constexpr int kFirstVariantIndex = ns::kFirstVariantIndex;      \
    static constexpr int kConfigCount = ns::kConfigCount;                  \
    static constexpr bool programmatic_launch(int) { return false; }       \
    static constexpr bool compiled(int config, bool row_mn, bool col_mn) { \
      return ns::layout_compiled(config, row_mn, col_mn);                  \
    }                                                                      \
    template <class Cfg>                                                   \
    static KernelEntry entry() {                                           \
      return [](GemmParams p) { gemm_kernel_body<Cfg>(p); };               \
    }                                                                      \
  };                                                                       \
  }                                                                        \
  BWGEMM_FOR_EACH_TYPE_PAIR(BWGEMM_EMULATED_VARIANTS_)                     \
  }

#define BWGEMM_EMULATED_VARIANTS_(name, AB, Out) \
  BWGEMM_DEFINE_VARIANTS(EmulatedFamily, name, AB, Out)

BWGEMM_EMULATED_FAMILY_(sm90)
BWGEMM_EMULATED_FAMILY_(sm100)

namespace bwgemm::decode {
namespace {

struct EmulatedEntry {
  template <class Cfg>
  static DecodeKernel of() {
    return [](DecodeParams p) { decode_body<Cfg>(p); };
  }
};

}  // namespace

DecodeKernel kernel_for(DType ab, DType out, int shape) {
  return pick_kernel<EmulatedEntry>(ab, out, shape);
}

}  // namespace bwgemm::decode
