// SPDX-License-Identifier: MIT
#include <cuda_runtime.h>

#include "kernels/decode/config.h"
#include "kernels/decode/variants.h"

namespace bwgemm::decode {

cudaError_t enqueue_decode(DecodeKernel kernel, unsigned ctas, uint32_t smem_bytes,
                           const DecodeParams& params, bool programmatic, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas, 1, 1);
  config.blockDim = dim3(kThreads, 1, 1);
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  // Programmatic: the prologue overlaps the previous grid on the stream (the
  // kernel waits for it before reading anything).
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &dependent;
  config.numAttrs = programmatic ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, params);
}

}  // namespace bwgemm::decode
