// SPDX-License-Identifier: MIT
//! Safe interface to libbwgemm, the drop-in replacement for cuBLAS's GEMM
//! entry points.
//!
//! - [`gemm`]: a typed `C = alpha * op(A) * op(B) + beta * C` (column-major,
//!   fp32 accumulation) that checks dimensions, leading dimensions and buffer
//!   lengths before it calls, and returns an error without calling when they
//!   are inconsistent.
//! - [`version`], [`last_dispatch`], [`set_thread_policy`]: the library's queries.
//!
//! Errors carry the `cublasStatus_t` (cuBLAS's, or `CUBLAS_STATUS_INVALID_VALUE`
//! for arguments rejected here). The raw API is [`sys`].
use std::ffi::{CStr, c_char, c_void};
use std::fmt;
use std::marker::PhantomData;

pub use bwgemm_sys as sys;

mod half;
pub use half::{Bf16, F16};

/// A failed call: the `cublasStatus_t` it returned, or
/// `CUBLAS_STATUS_INVALID_VALUE` with a [`detail`](Error::detail) when this
/// crate rejected the arguments without calling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    status: sys::cublasStatus_t,
    detail: Option<&'static str>,
}

impl Error {
    fn invalid(detail: &'static str) -> Error {
        Error {
            status: sys::CUBLAS_STATUS_INVALID_VALUE,
            detail: Some(detail),
        }
    }

    /// The `cublasStatus_t`.
    pub fn status(&self) -> sys::cublasStatus_t {
        self.status
    }

    /// What was wrong with the arguments, when the library was not called.
    pub fn detail(&self) -> Option<&'static str> {
        self.detail
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (cublasStatus_t {})",
            status_string(self.status),
            self.status
        )?;
        match self.detail {
            Some(detail) => write!(f, ": {detail}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

fn check(status: sys::cublasStatus_t) -> Result<()> {
    if status == sys::CUBLAS_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(Error {
            status,
            detail: None,
        })
    }
}

/// # Safety
/// `p` is NULL or a NUL-terminated string that lives for the whole program.
unsafe fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: per the contract above.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .unwrap_or("<not UTF-8>")
}

/// libbwgemm's description of a cuBLAS status ("unknown status" for values
/// cuBLAS does not define).
pub fn status_string(status: sys::cublasStatus_t) -> &'static str {
    // SAFETY: bwgemmGetStatusString returns a static string.
    unsafe { static_str(sys::bwgemmGetStatusString(status)) }
}

/// libbwgemm's message for a dispatch reason.
pub fn reason_string(reason: sys::bwgemmReason_t) -> &'static str {
    // SAFETY: bwgemmGetReasonString returns a static string.
    unsafe { static_str(sys::bwgemmGetReasonString(reason)) }
}

/// A bwgemm version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    /// From `major * 10000 + minor * 100 + patch` (`BWGEMM_VERSION`).
    pub const fn from_code(code: u32) -> Version {
        Version {
            major: code / 10000,
            minor: code / 100 % 100,
            patch: code % 100,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The version of the header these bindings were written for.
pub const BINDINGS_VERSION: Version = Version::from_code(sys::BWGEMM_VERSION as u32);

/// The version of the loaded library.
pub fn version() -> Version {
    Version::from_code(sys::bwgemmGetVersion() as u32)
}

/// Which implementation ran a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// No GEMM call has been made on this thread.
    None,
    /// Forwarded unchanged to the real cuBLAS.
    Cublas,
    /// bwgemm's Hopper kernels.
    Sm90,
    /// bwgemm's Blackwell kernels.
    Sm100,
    /// A value added by a newer library.
    Other(sys::bwgemmPath_t),
}

impl Path {
    fn from_raw(raw: sys::bwgemmPath_t) -> Path {
        match raw {
            sys::BWGEMM_PATH_NONE => Path::None,
            sys::BWGEMM_PATH_CUBLAS => Path::Cublas,
            sys::BWGEMM_PATH_SM90 => Path::Sm90,
            sys::BWGEMM_PATH_SM100 => Path::Sm100,
            other => Path::Other(other),
        }
    }
}

/// What the calling thread's last GEMM call did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DispatchInfo {
    pub path: Path,
    /// A `bwgemmReason_t` (`sys::BWGEMM_REASON_*`).
    pub reason: sys::bwgemmReason_t,
    /// Stable identifier, e.g. "NO_KERNEL_FOR_ARCH".
    pub reason_name: &'static str,
    pub reason_message: &'static str,
    /// Kernel configuration name; empty when forwarded.
    pub kernel: &'static str,
}

/// The decision taken for the calling thread's last GEMM call through any
/// bwgemm or interposed cuBLAS entry point.
pub fn last_dispatch() -> Result<DispatchInfo> {
    let mut raw = sys::bwgemmDispatchInfo_t {
        size: std::mem::size_of::<sys::bwgemmDispatchInfo_t>(),
        path: sys::BWGEMM_PATH_NONE,
        reason: sys::BWGEMM_REASON_KERNEL_SELECTED,
        reason_name: std::ptr::null(),
        reason_message: std::ptr::null(),
        kernel: std::ptr::null(),
    };
    // SAFETY: `raw` is a valid, writable bwgemmDispatchInfo_t with its size set.
    check(unsafe { sys::bwgemmGetLastDispatch(&mut raw) })?;
    // SAFETY: the library fills in static strings.
    unsafe {
        Ok(DispatchInfo {
            path: Path::from_raw(raw.path),
            reason: raw.reason,
            reason_name: static_str(raw.reason_name),
            reason_message: static_str(raw.reason_message),
            kernel: static_str(raw.kernel),
        })
    }
}

/// How the calling thread's GEMM calls are dispatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// bwgemm's kernels where measured faster, else cuBLAS (the default).
    Auto,
    /// bwgemm's kernel whenever it supports the call.
    ForceKernel,
    /// Always cuBLAS.
    ForceCublas,
}

/// Sets the calling thread's dispatch policy (BWGEMM_DISABLE=1 overrides it).
pub fn set_thread_policy(policy: Policy) -> Result<()> {
    check(sys::bwgemmSetThreadPolicy(match policy {
        Policy::Auto => sys::BWGEMM_POLICY_AUTO,
        Policy::ForceKernel => sys::BWGEMM_POLICY_FORCE_KERNEL,
        Policy::ForceCublas => sys::BWGEMM_POLICY_FORCE_CUBLAS,
    }))
}

/// The calling thread's dispatch policy.
pub fn thread_policy() -> Policy {
    match sys::bwgemmGetThreadPolicy() {
        sys::BWGEMM_POLICY_AUTO => Policy::Auto,
        sys::BWGEMM_POLICY_FORCE_KERNEL => Policy::ForceKernel,
        sys::BWGEMM_POLICY_FORCE_CUBLAS => Policy::ForceCublas,
        other => panic!("libbwgemm returned an unknown policy {other}"),
    }
}

/// A cuBLAS handle created by the caller (for example with `cublasCreate_v2`),
/// borrowed, not owned.
#[derive(Debug)]
pub struct Handle {
    raw: sys::cublasHandle_t,
}

impl Handle {
    /// # Safety
    /// `raw` is NULL (every call then fails with
    /// `CUBLAS_STATUS_NOT_INITIALIZED`) or a live cuBLAS handle, in host
    /// pointer mode (the default: [`gemm`] passes alpha and beta as host
    /// pointers), that outlives this value and is not used concurrently.
    pub unsafe fn from_raw(raw: sys::cublasHandle_t) -> Handle {
        Handle { raw }
    }

    pub fn as_raw(&self) -> sys::cublasHandle_t {
        self.raw
    }
}

/// `len` elements of device memory that a GEMM reads.
#[derive(Debug)]
pub struct DeviceSlice<'a, T> {
    ptr: *const T,
    len: usize,
    _borrow: PhantomData<&'a T>,
}

impl<T> DeviceSlice<'_, T> {
    /// # Safety
    /// `ptr` points to at least `len` elements of device memory, readable
    /// from the handle's device and stream for the slice's lifetime.
    pub unsafe fn from_raw_parts(ptr: *const T, len: usize) -> Self {
        DeviceSlice {
            ptr,
            len,
            _borrow: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// `len` elements of device memory that a GEMM writes.
#[derive(Debug)]
pub struct DeviceSliceMut<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut T>,
}

impl<T> DeviceSliceMut<'_, T> {
    /// # Safety
    /// `ptr` points to at least `len` elements of device memory, readable
    /// and writable from the handle's device and stream, used by nothing
    /// else for the slice's lifetime.
    pub unsafe fn from_raw_parts(ptr: *mut T, len: usize) -> Self {
        DeviceSliceMut {
            ptr,
            len,
            _borrow: PhantomData,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for super::F16 {}
    impl Sealed for super::Bf16 {}
}

/// A matrix element type.
pub trait Element: Copy + sealed::Sealed {
    const DATA_TYPE: sys::cudaDataType;
}

impl Element for f32 {
    const DATA_TYPE: sys::cudaDataType = sys::CUDA_R_32F;
}
impl Element for F16 {
    const DATA_TYPE: sys::cudaDataType = sys::CUDA_R_16F;
}
impl Element for Bf16 {
    const DATA_TYPE: sys::cudaDataType = sys::CUDA_R_16BF;
}

/// Input element types, and the output types `C` a GEMM with fp32
/// accumulation (`CUBLAS_COMPUTE_32F`) writes from them.
pub trait Accumulate<C: Element>: Element {}
impl Accumulate<F16> for F16 {}
impl Accumulate<f32> for F16 {}
impl Accumulate<Bf16> for Bf16 {}
impl Accumulate<f32> for Bf16 {}
impl Accumulate<f32> for f32 {}

/// op(X): X itself or its transpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    N,
    T,
}

impl Op {
    fn raw(self) -> sys::cublasOperation_t {
        match self {
            Op::N => sys::CUBLAS_OP_N,
            Op::T => sys::CUBLAS_OP_T,
        }
    }
}

/// Shape of `C[m x n] = alpha * op(A)[m x k] * op(B)[k x n] + beta * C`, all
/// column-major with leading dimensions `lda`, `ldb`, `ldc` (in elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemmShape {
    pub op_a: Op,
    pub op_b: Op,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub lda: usize,
    pub ldb: usize,
    pub ldc: usize,
}

/// Elements a column-major `rows x cols` matrix with leading dimension `ld` spans.
fn span(rows: usize, cols: usize, ld: usize) -> Result<usize> {
    if rows == 0 || cols == 0 {
        return Ok(0);
    }
    ld.checked_mul(cols - 1)
        .and_then(|n| n.checked_add(rows))
        .ok_or(Error::invalid(
            "a matrix spans more elements than usize holds",
        ))
}

impl GemmShape {
    /// Leading dimensions equal to the stored row counts (no padding).
    pub fn packed(op_a: Op, op_b: Op, m: usize, n: usize, k: usize) -> GemmShape {
        let lda = if op_a == Op::N { m } else { k };
        let ldb = if op_b == Op::N { k } else { n };
        GemmShape {
            op_a,
            op_b,
            m,
            n,
            k,
            lda: lda.max(1),
            ldb: ldb.max(1),
            ldc: m.max(1),
        }
    }

    /// Rows and columns of A and B as stored.
    fn stored(&self) -> ((usize, usize), (usize, usize)) {
        let a = if self.op_a == Op::N {
            (self.m, self.k)
        } else {
            (self.k, self.m)
        };
        let b = if self.op_b == Op::N {
            (self.k, self.n)
        } else {
            (self.n, self.k)
        };
        (a, b)
    }

    /// Checks the shape against the lengths of A, B and C, as cuBLAS checks
    /// leading dimensions (`ld >= max(1, rows)`), and that every buffer the
    /// call can touch holds the elements it spans. A and B are not read when
    /// m, n or k is 0; C is not touched when m or n is 0.
    pub fn check(&self, a_len: usize, b_len: usize, c_len: usize) -> Result<()> {
        let ((a_rows, a_cols), (b_rows, b_cols)) = self.stored();
        if self.lda < a_rows.max(1) {
            return Err(Error::invalid(
                "lda is smaller than the rows of A as stored",
            ));
        }
        if self.ldb < b_rows.max(1) {
            return Err(Error::invalid(
                "ldb is smaller than the rows of B as stored",
            ));
        }
        if self.ldc < self.m.max(1) {
            return Err(Error::invalid("ldc is smaller than m"));
        }
        for value in [self.m, self.n, self.k, self.lda, self.ldb, self.ldc] {
            if i64::try_from(value).is_err() {
                return Err(Error::invalid("a dimension exceeds the range of int64_t"));
            }
        }
        let inputs_read = self.m > 0 && self.n > 0 && self.k > 0;
        if inputs_read && a_len < span(a_rows, a_cols, self.lda)? {
            return Err(Error::invalid(
                "A is shorter than its shape and lda require",
            ));
        }
        if inputs_read && b_len < span(b_rows, b_cols, self.ldb)? {
            return Err(Error::invalid(
                "B is shorter than its shape and ldb require",
            ));
        }
        if c_len < span(self.m, self.n, self.ldc)? {
            return Err(Error::invalid("C is shorter than m, n and ldc require"));
        }
        Ok(())
    }
}

/// `C = alpha * op(A) * op(B) + beta * C` on the handle's stream, with fp32
/// accumulation (`CUBLAS_COMPUTE_32F`, `CUBLAS_GEMM_DEFAULT`), through
/// `bwgemmGemmEx_64`. The shape is checked against the buffers first; on an
/// inconsistency the error has a [`detail`](Error::detail) and nothing is
/// called. The call is asynchronous: synchronize the stream before reading C.
pub fn gemm<A, C>(
    handle: &Handle,
    shape: &GemmShape,
    alpha: f32,
    a: &DeviceSlice<'_, A>,
    b: &DeviceSlice<'_, A>,
    beta: f32,
    c: &mut DeviceSliceMut<'_, C>,
) -> Result<()>
where
    A: Accumulate<C>,
    C: Element,
{
    shape.check(a.len, b.len, c.len)?;
    // Lossless: check() verified that every value fits in int64_t.
    let dim = |value: usize| value as i64;
    // SAFETY: the handle, buffers and shape satisfy the contracts of their
    // constructors and check(); alpha and beta outlive the call, which reads
    // them before returning (host pointer mode).
    check(unsafe {
        sys::bwgemmGemmEx_64(
            handle.raw,
            shape.op_a.raw(),
            shape.op_b.raw(),
            dim(shape.m),
            dim(shape.n),
            dim(shape.k),
            (&alpha as *const f32).cast::<c_void>(),
            a.ptr.cast::<c_void>(),
            A::DATA_TYPE,
            dim(shape.lda),
            b.ptr.cast::<c_void>(),
            A::DATA_TYPE,
            dim(shape.ldb),
            (&beta as *const f32).cast::<c_void>(),
            c.ptr.cast::<c_void>(),
            C::DATA_TYPE,
            dim(shape.ldc),
            sys::CUBLAS_COMPUTE_32F,
            sys::CUBLAS_GEMM_DEFAULT,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_code_decodes() {
        assert_eq!(
            Version::from_code(10203),
            Version {
                major: 1,
                minor: 2,
                patch: 3
            }
        );
        assert_eq!(BINDINGS_VERSION.to_string(), "0.1.0");
    }

    #[test]
    fn packed_shape_passes_its_own_check() {
        for (op_a, op_b) in [
            (Op::N, Op::N),
            (Op::N, Op::T),
            (Op::T, Op::N),
            (Op::T, Op::T),
        ] {
            let s = GemmShape::packed(op_a, op_b, 5, 3, 4);
            assert_eq!(s.check(20, 12, 15), Ok(()));
            assert!(s.check(19, 12, 15).is_err());
            assert!(s.check(20, 11, 15).is_err());
            assert!(s.check(20, 12, 14).is_err());
        }
    }

    #[test]
    fn leading_dimensions_follow_the_stored_layout() {
        // A is k x m when transposed: lda >= k.
        let mut s = GemmShape::packed(Op::T, Op::N, 8, 2, 3);
        assert_eq!(s.lda, 3);
        s.lda = 2;
        assert_eq!(
            s.check(usize::MAX, usize::MAX, usize::MAX)
                .unwrap_err()
                .detail(),
            Some("lda is smaller than the rows of A as stored")
        );
        // Padding: the last column need not extend to ld.
        let s = GemmShape {
            lda: 10,
            ..GemmShape::packed(Op::N, Op::N, 4, 2, 3)
        };
        assert_eq!(s.check(10 * 2 + 4, 6, 8), Ok(()));
        assert!(s.check(10 * 2 + 3, 6, 8).is_err());
    }

    #[test]
    fn empty_problems_need_no_data() {
        let s = GemmShape::packed(Op::N, Op::N, 0, 7, 5);
        assert_eq!(s.ldc, 1);
        assert_eq!(s.check(0, 0, 0), Ok(()));
        // k == 0: A and B are not read, C is (C = beta * C).
        let s = GemmShape::packed(Op::N, Op::N, 4, 4, 0);
        assert_eq!(s.check(0, 0, 16), Ok(()));
        assert!(s.check(0, 0, 15).is_err());
    }

    #[test]
    fn overflowing_spans_are_rejected() {
        let s = GemmShape {
            ldc: usize::MAX / 2,
            ..GemmShape::packed(Op::N, Op::N, 1, 4, 1)
        };
        let err = s.check(1, 4, usize::MAX).unwrap_err();
        assert_eq!(err.status(), sys::CUBLAS_STATUS_INVALID_VALUE);
        assert_eq!(
            err.detail(),
            Some("a matrix spans more elements than usize holds")
        );
        let s = GemmShape {
            ldc: usize::MAX,
            ..GemmShape::packed(Op::N, Op::N, 1, 1, 1)
        };
        assert_eq!(
            s.check(1, 1, usize::MAX).unwrap_err().detail(),
            Some("a dimension exceeds the range of int64_t")
        );
    }
}
