// SPDX-License-Identifier: MIT
// The tcgen05.mma instruction descriptor for .kind::f16 (PTX ISA 9.7.16.4.2,
// table "Instruction descriptor format for .kind::f16"): a plain function,
// unit-tested on the host against the worked values of the reference.
#pragma once

#include <cstdint>

#include "kernels/ptx/device.cuh"

namespace bwgemm::sm100 {

// fp32 accumulation of fp16 (bf16 = false) or bf16 operands; A is M x K and B
// is N x K in shared memory, each K-major or (transposed) M/N-major.
BWGEMM_HOST_DEVICE constexpr uint32_t make_instr_desc_f16(bool bf16, bool a_mn_major,
                                                          bool b_mn_major, int m, int n) {
  return (1u << 4)                       // D format: f32
         | (uint32_t(bf16) << 7)         // A format: 0 f16, 1 bf16
         | (uint32_t(bf16) << 10)        // B format
         | (uint32_t(a_mn_major) << 15)  // transpose A
         | (uint32_t(b_mn_major) << 16)  // transpose B
         | (uint32_t(n >> 3) << 17)      // N >> 3, bits 17-22
         | (uint32_t(m >> 4) << 24);     // M >> 4, bits 24-28
}

}  // namespace bwgemm::sm100
