// SPDX-License-Identifier: MIT
//! The safe API against libbwgemm, without a GPU: version, strings, policy,
//! and GEMM calls with a NULL handle, which cuBLAS (or bwgemm, when cuBLAS
//! cannot be loaded) answers with CUBLAS_STATUS_NOT_INITIALIZED. Calls whose
//! arguments are inconsistent must fail before reaching the library, which
//! the calling thread's dispatch record shows.
use bwgemm::{
    BINDINGS_VERSION, DeviceSlice, DeviceSliceMut, F16, GemmShape, Handle, Op, Path, Policy, gemm,
    last_dispatch, set_thread_policy, status_string, sys, thread_policy, version,
};
use std::ptr;
use std::thread;

fn null_handle() -> Handle {
    // SAFETY: a NULL handle is allowed; every call fails with NOT_INITIALIZED.
    unsafe { Handle::from_raw(ptr::null_mut()) }
}

/// Device slices that are never dereferenced: the calls fail first.
fn slices<'a, A, C>(
    a: usize,
    b: usize,
    c: usize,
) -> (
    DeviceSlice<'a, A>,
    DeviceSlice<'a, A>,
    DeviceSliceMut<'a, C>,
) {
    // SAFETY: with a NULL handle no memory is accessed.
    unsafe {
        (
            DeviceSlice::from_raw_parts(ptr::null(), a),
            DeviceSlice::from_raw_parts(ptr::null(), b),
            DeviceSliceMut::from_raw_parts(ptr::null_mut(), c),
        )
    }
}

/// Runs `f` on a new thread, whose dispatch record starts empty.
fn on_fresh_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    thread::spawn(f).join().expect("test thread panicked")
}

#[test]
fn library_version_matches_the_bindings() {
    assert_eq!(version(), BINDINGS_VERSION);
    assert_eq!(sys::bwgemmGetVersion(), sys::BWGEMM_VERSION);
}

#[test]
fn status_strings() {
    assert!(!status_string(sys::CUBLAS_STATUS_SUCCESS).is_empty());
    assert!(!status_string(sys::CUBLAS_STATUS_NOT_INITIALIZED).is_empty());
    assert_eq!(status_string(12345), "unknown status");
    assert!(!bwgemm::reason_string(sys::BWGEMM_REASON_NULL_HANDLE).is_empty());
}

#[test]
fn thread_policy_round_trips() {
    on_fresh_thread(|| {
        assert_eq!(thread_policy(), Policy::Auto);
        set_thread_policy(Policy::ForceCublas).unwrap();
        assert_eq!(thread_policy(), Policy::ForceCublas);
        assert_eq!(
            sys::bwgemmSetThreadPolicy(42),
            sys::CUBLAS_STATUS_INVALID_VALUE
        );
        set_thread_policy(Policy::Auto).unwrap();
    });
}

#[test]
fn null_handle_reaches_cublas_and_fails_not_initialized() {
    on_fresh_thread(|| {
        assert_eq!(last_dispatch().unwrap().path, Path::None);
        let shape = GemmShape::packed(Op::N, Op::T, 16, 8, 4);
        let (a, b, mut c) = slices::<F16, f32>(64, 32, 128);
        let err = gemm(&null_handle(), &shape, 1.0, &a, &b, 0.0, &mut c).unwrap_err();
        assert_eq!(err.status(), sys::CUBLAS_STATUS_NOT_INITIALIZED, "{err}");
        assert_eq!(err.detail(), None);
        let info = last_dispatch().unwrap();
        assert_eq!(info.path, Path::Cublas);
        assert_eq!(info.reason, sys::BWGEMM_REASON_NULL_HANDLE);
        assert_eq!(info.reason_name, "NULL_HANDLE");
        assert_eq!(info.kernel, "");
    });
}

#[test]
fn inconsistent_arguments_fail_without_calling() {
    on_fresh_thread(|| {
        let handle = null_handle();
        let shape = GemmShape {
            lda: 15,
            ..GemmShape::packed(Op::N, Op::N, 16, 8, 4)
        };
        let (a, b, mut c) = slices::<F16, F16>(64, 32, 128);
        let err = gemm(&handle, &shape, 1.0, &a, &b, 0.0, &mut c).unwrap_err();
        assert_eq!(err.status(), sys::CUBLAS_STATUS_INVALID_VALUE);
        assert!(err.to_string().contains("lda"), "{err}");

        let shape = GemmShape::packed(Op::N, Op::N, 16, 8, 4);
        let (a, b, mut c) = slices::<F16, F16>(64, 31, 128);
        let err = gemm(&handle, &shape, 1.0, &a, &b, 0.0, &mut c).unwrap_err();
        assert_eq!(
            err.detail(),
            Some("B is shorter than its shape and ldb require")
        );

        // Neither call reached the library.
        assert_eq!(last_dispatch().unwrap().path, Path::None);
    });
}
