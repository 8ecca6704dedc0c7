// SPDX-License-Identifier: MIT
//! Raw declarations of libbwgemm's C API, `include/bwgemm/bwgemm.h`, and of
//! the cuBLAS types and constants it uses. The safe interface is the `bwgemm`
//! crate.
//!
//! C enums are declared as `c_int` type aliases with constants, so that a
//! value this crate does not know (a newer cuBLAS status, an appended
//! `bwgemmReason_t`) is still representable. The `header_drift` test compares
//! these declarations with the header and the CUDA headers.
#![no_std]
#![allow(non_camel_case_types, non_snake_case)]

use core::ffi::{c_char, c_int, c_longlong, c_void};

pub const BWGEMM_VERSION_MAJOR: c_int = 0;
pub const BWGEMM_VERSION_MINOR: c_int = 1;
pub const BWGEMM_VERSION_PATCH: c_int = 0;
/// major * 10000 + minor * 100 + patch.
pub const BWGEMM_VERSION: c_int = 100;

pub type cublasStatus_t = c_int;
pub const CUBLAS_STATUS_SUCCESS: cublasStatus_t = 0;
pub const CUBLAS_STATUS_NOT_INITIALIZED: cublasStatus_t = 1;
pub const CUBLAS_STATUS_ALLOC_FAILED: cublasStatus_t = 3;
pub const CUBLAS_STATUS_INVALID_VALUE: cublasStatus_t = 7;
pub const CUBLAS_STATUS_ARCH_MISMATCH: cublasStatus_t = 8;
pub const CUBLAS_STATUS_MAPPING_ERROR: cublasStatus_t = 11;
pub const CUBLAS_STATUS_EXECUTION_FAILED: cublasStatus_t = 13;
pub const CUBLAS_STATUS_INTERNAL_ERROR: cublasStatus_t = 14;
pub const CUBLAS_STATUS_NOT_SUPPORTED: cublasStatus_t = 15;
pub const CUBLAS_STATUS_LICENSE_ERROR: cublasStatus_t = 16;

/// cuBLAS's opaque context.
#[repr(C)]
pub struct cublasContext {
    _private: [u8; 0],
}
pub type cublasHandle_t = *mut cublasContext;

pub type cublasOperation_t = c_int;
pub const CUBLAS_OP_N: cublasOperation_t = 0;
pub const CUBLAS_OP_T: cublasOperation_t = 1;
pub const CUBLAS_OP_C: cublasOperation_t = 2;

pub type cudaDataType = c_int;
pub const CUDA_R_32F: cudaDataType = 0;
pub const CUDA_R_16F: cudaDataType = 2;
pub const CUDA_R_16BF: cudaDataType = 14;

pub type cublasComputeType_t = c_int;
pub const CUBLAS_COMPUTE_32F: cublasComputeType_t = 68;
pub const CUBLAS_COMPUTE_32F_PEDANTIC: cublasComputeType_t = 69;
pub const CUBLAS_COMPUTE_32F_FAST_16F: cublasComputeType_t = 74;
pub const CUBLAS_COMPUTE_32F_FAST_16BF: cublasComputeType_t = 75;
pub const CUBLAS_COMPUTE_32F_FAST_TF32: cublasComputeType_t = 77;

pub type cublasGemmAlgo_t = c_int;
pub const CUBLAS_GEMM_DEFAULT: cublasGemmAlgo_t = -1;
pub const CUBLAS_GEMM_DEFAULT_TENSOR_OP: cublasGemmAlgo_t = 99;

/// Why a call ran where it ran; append-only.
pub type bwgemmReason_t = c_int;
pub const BWGEMM_REASON_KERNEL_SELECTED: bwgemmReason_t = 0;
pub const BWGEMM_REASON_DISABLED_BY_ENV: bwgemmReason_t = 1;
pub const BWGEMM_REASON_INVALID_ARGUMENT: bwgemmReason_t = 2;
pub const BWGEMM_REASON_NULL_HANDLE: bwgemmReason_t = 3;
pub const BWGEMM_REASON_QUICK_RETURN: bwgemmReason_t = 4;
pub const BWGEMM_REASON_UNSUPPORTED_TYPES: bwgemmReason_t = 5;
pub const BWGEMM_REASON_UNSUPPORTED_LAYOUT: bwgemmReason_t = 6;
pub const BWGEMM_REASON_UNSUPPORTED_BATCH: bwgemmReason_t = 7;
pub const BWGEMM_REASON_NO_KERNEL_FOR_ARCH: bwgemmReason_t = 8;
pub const BWGEMM_REASON_POLICY_PREFERS_CUBLAS: bwgemmReason_t = 9;
pub const BWGEMM_REASON_DEVICE_QUERY_FAILED: bwgemmReason_t = 10;
pub const BWGEMM_REASON_FAMILY_DISABLED: bwgemmReason_t = 11;
pub const BWGEMM_REASON_TOO_LARGE: bwgemmReason_t = 12;
pub const BWGEMM_REASON_HANDLE_QUERY_FAILED: bwgemmReason_t = 13;
pub const BWGEMM_REASON_LAUNCH_FAILED: bwgemmReason_t = 14;
pub const BWGEMM_REASON_FORCED_CUBLAS: bwgemmReason_t = 15;
pub const BWGEMM_REASON_SELF_CHECK_PENDING: bwgemmReason_t = 16;
pub const BWGEMM_REASON_UNKNOWN_HANDLE: bwgemmReason_t = 17;
pub const BWGEMM_REASON_LT_UNSUPPORTED: bwgemmReason_t = 18;

/// Which implementation ran a call.
pub type bwgemmPath_t = c_int;
pub const BWGEMM_PATH_NONE: bwgemmPath_t = 0;
pub const BWGEMM_PATH_CUBLAS: bwgemmPath_t = 1;
pub const BWGEMM_PATH_SM90: bwgemmPath_t = 2;
pub const BWGEMM_PATH_SM100: bwgemmPath_t = 3;

/// Per-thread dispatch policy.
pub type bwgemmPolicy_t = c_int;
pub const BWGEMM_POLICY_AUTO: bwgemmPolicy_t = 0;
pub const BWGEMM_POLICY_FORCE_KERNEL: bwgemmPolicy_t = 1;
pub const BWGEMM_POLICY_FORCE_CUBLAS: bwgemmPolicy_t = 2;

/// What the calling thread's last GEMM call did. Set `size` to
/// `size_of::<bwgemmDispatchInfo_t>()` before `bwgemmGetLastDispatch`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct bwgemmDispatchInfo_t {
    pub size: usize,
    pub path: bwgemmPath_t,
    pub reason: bwgemmReason_t,
    pub reason_name: *const c_char,
    pub reason_message: *const c_char,
    pub kernel: *const c_char,
}

unsafe extern "C" {
    pub safe fn bwgemmGetVersion() -> c_int;

    pub fn bwgemmGetLastDispatch(info: *mut bwgemmDispatchInfo_t) -> cublasStatus_t;

    /// A static, never-NULL string.
    pub safe fn bwgemmGetStatusString(status: cublasStatus_t) -> *const c_char;

    /// A static, never-NULL string.
    pub safe fn bwgemmGetReasonString(reason: bwgemmReason_t) -> *const c_char;

    pub safe fn bwgemmSetThreadPolicy(policy: bwgemmPolicy_t) -> cublasStatus_t;

    pub safe fn bwgemmGetThreadPolicy() -> bwgemmPolicy_t;

    pub fn bwgemmGemmEx(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        A: *const c_void,
        Atype: cudaDataType,
        lda: c_int,
        B: *const c_void,
        Btype: cudaDataType,
        ldb: c_int,
        beta: *const c_void,
        C: *mut c_void,
        Ctype: cudaDataType,
        ldc: c_int,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;

    pub fn bwgemmGemmEx_64(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: i64,
        n: i64,
        k: i64,
        alpha: *const c_void,
        A: *const c_void,
        Atype: cudaDataType,
        lda: i64,
        B: *const c_void,
        Btype: cudaDataType,
        ldb: i64,
        beta: *const c_void,
        C: *mut c_void,
        Ctype: cudaDataType,
        ldc: i64,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;

    pub fn bwgemmGemmStridedBatchedEx(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        A: *const c_void,
        Atype: cudaDataType,
        lda: c_int,
        strideA: c_longlong,
        B: *const c_void,
        Btype: cudaDataType,
        ldb: c_int,
        strideB: c_longlong,
        beta: *const c_void,
        C: *mut c_void,
        Ctype: cudaDataType,
        ldc: c_int,
        strideC: c_longlong,
        batchCount: c_int,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;

    pub fn bwgemmGemmStridedBatchedEx_64(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: i64,
        n: i64,
        k: i64,
        alpha: *const c_void,
        A: *const c_void,
        Atype: cudaDataType,
        lda: i64,
        strideA: c_longlong,
        B: *const c_void,
        Btype: cudaDataType,
        ldb: i64,
        strideB: c_longlong,
        beta: *const c_void,
        C: *mut c_void,
        Ctype: cudaDataType,
        ldc: i64,
        strideC: c_longlong,
        batchCount: i64,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;

    /// `Aarray`, `Barray` and `Carray` are device arrays of device pointers.
    pub fn bwgemmGemmBatchedEx(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: c_int,
        n: c_int,
        k: c_int,
        alpha: *const c_void,
        Aarray: *const *const c_void,
        Atype: cudaDataType,
        lda: c_int,
        Barray: *const *const c_void,
        Btype: cudaDataType,
        ldb: c_int,
        beta: *const c_void,
        Carray: *const *mut c_void,
        Ctype: cudaDataType,
        ldc: c_int,
        batchCount: c_int,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;

    pub fn bwgemmGemmBatchedEx_64(
        handle: cublasHandle_t,
        transa: cublasOperation_t,
        transb: cublasOperation_t,
        m: i64,
        n: i64,
        k: i64,
        alpha: *const c_void,
        Aarray: *const *const c_void,
        Atype: cudaDataType,
        lda: i64,
        Barray: *const *const c_void,
        Btype: cudaDataType,
        ldb: i64,
        beta: *const c_void,
        Carray: *const *mut c_void,
        Ctype: cudaDataType,
        ldc: i64,
        batchCount: i64,
        computeType: cublasComputeType_t,
        algo: cublasGemmAlgo_t,
    ) -> cublasStatus_t;
}
