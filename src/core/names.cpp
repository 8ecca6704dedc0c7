// SPDX-License-Identifier: MIT
#include "core/names.h"

namespace bwgemm {

const char* reason_name(bwgemmReason_t reason) {
  switch (reason) {
#define BWGEMM_REASON_NAME_(name, value, message) \
  case BWGEMM_REASON_##name: return #name;
    BWGEMM_REASON_MAP(BWGEMM_REASON_NAME_)
#undef BWGEMM_REASON_NAME_
  }
  return "UNKNOWN";
}

const char* reason_message(bwgemmReason_t reason) {
  switch (reason) {
#define BWGEMM_REASON_MESSAGE_(name, value, message) \
  case BWGEMM_REASON_##name: return message;
    BWGEMM_REASON_MAP(BWGEMM_REASON_MESSAGE_)
#undef BWGEMM_REASON_MESSAGE_
  }
  return "unknown reason";
}

const char* path_name(bwgemmPath_t path) {
  switch (path) {
    case BWGEMM_PATH_NONE: return "none";
    case BWGEMM_PATH_CUBLAS: return "cublas";
    case BWGEMM_PATH_SM90: return "sm90";
    case BWGEMM_PATH_SM100: return "sm100";
  }
  return "?";
}

const char* dtype_name(DType type) {
  switch (type) {
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F32: return "f32";
  }
  return "?";
}

const char* entry_point_name(EntryPoint entry, CalledAs called_as) {
  const bool own = called_as == CalledAs::Bwgemm;
  switch (entry) {
    case EntryPoint::GemmEx: return own ? "bwgemmGemmEx" : "cublasGemmEx";
    case EntryPoint::GemmEx_64: return own ? "bwgemmGemmEx_64" : "cublasGemmEx_64";
    case EntryPoint::GemmStridedBatchedEx:
      return own ? "bwgemmGemmStridedBatchedEx" : "cublasGemmStridedBatchedEx";
    case EntryPoint::GemmStridedBatchedEx_64:
      return own ? "bwgemmGemmStridedBatchedEx_64" : "cublasGemmStridedBatchedEx_64";
    case EntryPoint::GemmBatchedEx: return own ? "bwgemmGemmBatchedEx" : "cublasGemmBatchedEx";
    case EntryPoint::GemmBatchedEx_64:
      return own ? "bwgemmGemmBatchedEx_64" : "cublasGemmBatchedEx_64";
    case EntryPoint::LtMatmul: return "cublasLtMatmul";
  }
  return "?";
}

}  // namespace bwgemm
