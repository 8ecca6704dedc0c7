// SPDX-License-Identifier: MIT
// Printable names of the shared vocabulary, for logs and queries. Each
// returns a static, never-NULL string.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/problem.h"
#include "core/raw_call.h"

namespace bwgemm {

const char* reason_name(bwgemmReason_t reason);     // "NO_KERNEL_FOR_ARCH"
const char* reason_message(bwgemmReason_t reason);  // one line for humans
const char* path_name(bwgemmPath_t path);           // "cublas", "sm90", ...
const char* dtype_name(DType type);                 // "f16", "bf16", "f32"
// The exported function called: "cublasGemmEx", "bwgemmGemmStridedBatchedEx_64", ...
const char* entry_point_name(EntryPoint entry, CalledAs called_as);

}  // namespace bwgemm
