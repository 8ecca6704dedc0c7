/* SPDX-License-Identifier: MIT */
/*
 * bwgemm: a drop-in replacement for the cuBLAS GEMM entry points.
 *
 * libbwgemm.so exports cublasGemmEx and its relatives with cuBLAS's exact
 * signatures (see README.md), so a program can LD_PRELOAD it or link it in
 * place of cuBLAS. This header declares bwgemm's own names for the same calls
 * plus a few queries. Everything here is usable from C and C++ and uses
 * cuBLAS's own types.
 */
#ifndef BWGEMM_BWGEMM_H
#define BWGEMM_BWGEMM_H

#include <stddef.h>
#include <stdint.h>

#include <cublas_api.h>

#if defined(_WIN32)
#if defined(BWGEMM_BUILDING_LIBRARY)
#define BWGEMM_API __declspec(dllexport)
#else
#define BWGEMM_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define BWGEMM_API __attribute__((visibility("default")))
#else
#define BWGEMM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define BWGEMM_VERSION_MAJOR 0
#define BWGEMM_VERSION_MINOR 1
#define BWGEMM_VERSION_PATCH 0
/* major * 10000 + minor * 100 + patch, as CUBLAS_VERSION is built. */
#define BWGEMM_VERSION \
  (BWGEMM_VERSION_MAJOR * 10000 + BWGEMM_VERSION_MINOR * 100 + BWGEMM_VERSION_PATCH)

/*
 * Why a call ran where it ran. Append-only: values are never renumbered and a
 * retired reason keeps its slot. XX(name, value, message).
 */
#define BWGEMM_REASON_MAP(XX)                                                                   \
  XX(KERNEL_SELECTED, 0, "a bwgemm kernel was selected")                                        \
  XX(DISABLED_BY_ENV, 1, "BWGEMM_DISABLE is set")                                               \
  XX(INVALID_ARGUMENT, 2, "invalid argument: cuBLAS reports the error")                         \
  XX(NULL_HANDLE, 3, "NULL handle: cuBLAS reports the error")                                   \
  XX(QUICK_RETURN, 4, "empty problem (m, n or batch is 0)")                                     \
  XX(UNSUPPORTED_TYPES, 5, "type or compute-type combination not taken by bwgemm")              \
  XX(UNSUPPORTED_LAYOUT, 6, "pointers, leading dimensions or strides the kernels cannot load")  \
  XX(UNSUPPORTED_BATCH, 7, "batched form or batch strides not taken by bwgemm")                 \
  XX(NO_KERNEL_FOR_ARCH, 8, "no bwgemm kernel for this GPU architecture")                       \
  XX(POLICY_PREFERS_CUBLAS, 9, "cuBLAS is measured faster for this shape")                      \
  XX(DEVICE_QUERY_FAILED, 10, "could not query the current device")                             \
  XX(FAMILY_DISABLED, 11, "kernel family off (environment, or it failed on this device)")       \
  XX(TOO_LARGE, 12, "sizes or strides exceed what the kernel can address")                      \
  XX(HANDLE_QUERY_FAILED, 13, "handle unreadable, or its stream is on another device")          \
  XX(LAUNCH_FAILED, 14, "the kernel launch failed")                                             \
  XX(FORCED_CUBLAS, 15, "the thread's or the process's policy forces cuBLAS")                   \
  XX(SELF_CHECK_PENDING, 16, "the family's self-check on this device has not answered yet")     \
  XX(UNKNOWN_HANDLE, 17, "handle bwgemm did not see created (another cuBLAS copy's, or older)") \
  XX(LT_UNSUPPORTED, 18,                                                                        \
     "cuBLASLt order, batch mode, pointer mode, epilogue or attribute not taken")

typedef enum bwgemmReason {
#define BWGEMM_REASON_ENUM_(name, value, message) BWGEMM_REASON_##name = value,
  BWGEMM_REASON_MAP(BWGEMM_REASON_ENUM_)
#undef BWGEMM_REASON_ENUM_
} bwgemmReason_t;

/* Which implementation ran a call. */
typedef enum bwgemmPath {
  BWGEMM_PATH_NONE = 0,   /* no call has been made on this thread yet */
  BWGEMM_PATH_CUBLAS = 1, /* forwarded unchanged to the real cuBLAS */
  BWGEMM_PATH_SM90 = 2,   /* the Hopper (wgmma) kernel family */
  BWGEMM_PATH_SM100 = 3   /* the Blackwell (tcgen05) kernel family */
} bwgemmPath_t;

/*
 * What the last GEMM call made by the calling thread did. Set `size` to
 * sizeof(bwgemmDispatchInfo_t) before the query; later versions only append
 * fields.
 */
typedef struct bwgemmDispatchInfo {
  size_t size;
  bwgemmPath_t path;
  bwgemmReason_t reason;
  const char* reason_name;    /* stable identifier, e.g. "NO_KERNEL_FOR_ARCH" */
  const char* reason_message; /* one line for humans; where a kernel family's selection
                                 table decided (a kernel ran, or the table prefers cuBLAS),
                                 the table's rule, e.g. why this configuration */
  const char* kernel;         /* kernel configuration name, or "" when forwarded */
} bwgemmDispatchInfo_t;

/* Per-thread dispatch policy (see bwgemmSetThreadPolicy). */
typedef enum bwgemmPolicy {
  BWGEMM_POLICY_AUTO = 0,         /* bwgemm's kernels where measured faster, else cuBLAS */
  BWGEMM_POLICY_FORCE_KERNEL = 1, /* bwgemm's kernel whenever it supports the call */
  BWGEMM_POLICY_FORCE_CUBLAS = 2  /* always cuBLAS */
} bwgemmPolicy_t;

/*! bwgemmGetVersion() :
 *  @return BWGEMM_VERSION of the loaded library (which may differ from the
 *          header the caller was built with).
 *  Added in 0.1.0. */
BWGEMM_API int bwgemmGetVersion(void);

/*! bwgemmGetLastDispatch() :
 *  Fills `info` with the decision taken for the calling thread's last GEMM
 *  call through any bwgemm or interposed cuBLAS entry point.
 *  @return CUBLAS_STATUS_SUCCESS, or CUBLAS_STATUS_INVALID_VALUE when `info`
 *          is NULL or info->size is smaller than the 0.1.0 struct.
 *  Added in 0.1.0. */
BWGEMM_API cublasStatus_t bwgemmGetLastDispatch(bwgemmDispatchInfo_t* info);

/*! bwgemmGetStatusString() :
 *  @return a static, never-NULL description of a cuBLAS status code
 *          ("unknown status" for values cuBLAS does not define).
 *  Added in 0.1.0. */
BWGEMM_API const char* bwgemmGetStatusString(cublasStatus_t status);

/*! bwgemmGetReasonString() :
 *  @return a static, never-NULL message for a dispatch reason.
 *  Added in 0.1.0. */
BWGEMM_API const char* bwgemmGetReasonString(bwgemmReason_t reason);

/*! bwgemmSetThreadPolicy() :
 *  Sets how GEMM calls made by the calling thread are dispatched, from now on
 *  (the default is BWGEMM_POLICY_AUTO). A policy other than AUTO overrides
 *  BWGEMM_POLICY in the environment; BWGEMM_DISABLE=1 overrides both.
 *  Meant for benchmarks and tests that compare paths.
 *  @return CUBLAS_STATUS_SUCCESS, or CUBLAS_STATUS_INVALID_VALUE for an
 *          unknown policy.
 *  Added in 0.1.0. */
BWGEMM_API cublasStatus_t bwgemmSetThreadPolicy(bwgemmPolicy_t policy);

/*! bwgemmGetThreadPolicy() :
 *  @return the calling thread's dispatch policy.
 *  Added in 0.1.0. */
BWGEMM_API bwgemmPolicy_t bwgemmGetThreadPolicy(void);

/*
 * The GEMM entry points. Each has the signature and semantics of the cuBLAS
 * function with the same suffix (bwgemmGemmEx is cublasGemmEx, and so on):
 * column-major C = alpha * op(A) * op(B) + beta * C on the handle's stream,
 * with alpha/beta read according to the handle's pointer mode. Calls that
 * bwgemm does not run itself, invalid calls included, are forwarded unchanged
 * to the real cuBLAS, so every status code is cuBLAS's own. Added in 0.1.0.
 */
BWGEMM_API cublasStatus_t bwgemmGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                                       cublasOperation_t transb, int m, int n, int k,
                                       const void* alpha, const void* A, cudaDataType Atype,
                                       int lda, const void* B, cudaDataType Btype, int ldb,
                                       const void* beta, void* C, cudaDataType Ctype, int ldc,
                                       cublasComputeType_t computeType, cublasGemmAlgo_t algo);

BWGEMM_API cublasStatus_t bwgemmGemmEx_64(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                          const void* alpha, const void* A, cudaDataType Atype,
                                          int64_t lda, const void* B, cudaDataType Btype,
                                          int64_t ldb, const void* beta, void* C,
                                          cudaDataType Ctype, int64_t ldc,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);

BWGEMM_API cublasStatus_t bwgemmGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void* alpha, const void* A, cudaDataType Atype, int lda, long long int strideA,
    const void* B, cudaDataType Btype, int ldb, long long int strideB, const void* beta, void* C,
    cudaDataType Ctype, int ldc, long long int strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);

BWGEMM_API cublasStatus_t bwgemmGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void* alpha, const void* A, cudaDataType Atype, int64_t lda,
    long long int strideA, const void* B, cudaDataType Btype, int64_t ldb, long long int strideB,
    const void* beta, void* C, cudaDataType Ctype, int64_t ldc, long long int strideC,
    int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);

BWGEMM_API cublasStatus_t
bwgemmGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                    int m, int n, int k, const void* alpha, const void* const Aarray[],
                    cudaDataType Atype, int lda, const void* const Barray[], cudaDataType Btype,
                    int ldb, const void* beta, void* const Carray[], cudaDataType Ctype, int ldc,
                    int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);

BWGEMM_API cublasStatus_t bwgemmGemmBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void* alpha, const void* const Aarray[], cudaDataType Atype, int64_t lda,
    const void* const Barray[], cudaDataType Btype, int64_t ldb, const void* beta,
    void* const Carray[], cudaDataType Ctype, int64_t ldc, int64_t batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);

#ifdef __cplusplus
}
#endif

#endif /* BWGEMM_BWGEMM_H */
