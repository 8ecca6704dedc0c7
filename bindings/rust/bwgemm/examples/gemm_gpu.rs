// SPDX-License-Identifier: MIT
//! C = A * B on the GPU through bwgemm::gemm: fp16 A and B, fp32 C, fp32
//! accumulation, checked against a host loop. Device memory comes from the
//! CUDA runtime and the handle from cuBLAS, declared here. Prints
//! "SKIP: no GPU" and exits 77 when no GPU is usable.
//!
//!   cargo run --example gemm_gpu   (libcudart.so and libcublas.so are found
//!   in <CUDA root>/lib64, as bwgemm-sys's build script reports it)
use bwgemm::{DeviceSlice, DeviceSliceMut, F16, GemmShape, Handle, Op, gemm, last_dispatch, sys};
use std::ffi::{c_int, c_void};
use std::process::exit;
use std::ptr;

const CUDA_SUCCESS: c_int = 0;
const CUDA_MEMCPY_HOST_TO_DEVICE: c_int = 1;
const CUDA_MEMCPY_DEVICE_TO_HOST: c_int = 2;

#[link(name = "cudart")]
unsafe extern "C" {
    fn cudaGetDeviceCount(count: *mut c_int) -> c_int;
    fn cudaMalloc(ptr: *mut *mut c_void, bytes: usize) -> c_int;
    fn cudaFree(ptr: *mut c_void) -> c_int;
    fn cudaMemcpy(dst: *mut c_void, src: *const c_void, bytes: usize, kind: c_int) -> c_int;
    fn cudaDeviceSynchronize() -> c_int;
}

// cublasCreate and cublasDestroy are C macros for these names.
#[link(name = "cublas")]
unsafe extern "C" {
    fn cublasCreate_v2(handle: *mut sys::cublasHandle_t) -> sys::cublasStatus_t;
    fn cublasDestroy_v2(handle: sys::cublasHandle_t) -> sys::cublasStatus_t;
}

fn cuda(err: c_int, what: &str) {
    if err != CUDA_SUCCESS {
        eprintln!("FAIL: {what}: CUDA error {err}");
        exit(1);
    }
}

/// Device memory holding `len` elements of T, freed on drop.
struct DeviceBuffer<T> {
    ptr: *mut T,
    len: usize,
}

impl<T: Copy> DeviceBuffer<T> {
    fn from_host(host: &[T]) -> Self {
        let bytes = std::mem::size_of_val(host);
        let mut raw = ptr::null_mut();
        // SAFETY: plain CUDA runtime calls on memory owned here.
        unsafe {
            cuda(cudaMalloc(&mut raw, bytes), "cudaMalloc");
            let kind = CUDA_MEMCPY_HOST_TO_DEVICE;
            cuda(
                cudaMemcpy(raw, host.as_ptr().cast(), bytes, kind),
                "cudaMemcpy to device",
            );
        }
        DeviceBuffer {
            ptr: raw.cast(),
            len: host.len(),
        }
    }

    fn to_host(&self, host: &mut [T]) {
        assert_eq!(host.len(), self.len);
        let bytes = std::mem::size_of_val(host);
        let kind = CUDA_MEMCPY_DEVICE_TO_HOST;
        // SAFETY: both buffers hold `bytes` bytes.
        let err = unsafe { cudaMemcpy(host.as_mut_ptr().cast(), self.ptr.cast(), bytes, kind) };
        cuda(err, "cudaMemcpy to host");
    }

    fn slice(&self) -> DeviceSlice<'_, T> {
        // SAFETY: a live allocation of `len` elements, borrowed from self.
        unsafe { DeviceSlice::from_raw_parts(self.ptr, self.len) }
    }

    fn slice_mut(&mut self) -> DeviceSliceMut<'_, T> {
        // SAFETY: a live allocation of `len` elements, borrowed mutably.
        unsafe { DeviceSliceMut::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        // SAFETY: allocated by cudaMalloc and not used after this.
        cuda(unsafe { cudaFree(self.ptr.cast()) }, "cudaFree");
    }
}

fn main() {
    let mut devices = 0;
    // SAFETY: writes one int.
    if unsafe { cudaGetDeviceCount(&mut devices) } != CUDA_SUCCESS || devices < 1 {
        println!("SKIP: no GPU");
        exit(77);
    }

    // Not multiples of the kernels' tiles, so that edge tiles are exercised.
    let (m, n, k) = (300, 200, 136);
    // Small multiples of 1/8 are exact in fp16, and so are their products and
    // sums in fp32: the result must match the host loop exactly.
    let a: Vec<f32> = (0..m * k)
        .map(|i| ((3 * (i % m) + 5 * (i / m)) % 17) as f32 / 8.0 - 1.0)
        .collect();
    let b: Vec<f32> = (0..k * n)
        .map(|i| ((7 * (i % k) + 2 * (i / k)) % 13) as f32 / 8.0 - 0.75)
        .collect();
    let mut expected = vec![0.0f64; m * n];
    for j in 0..n {
        for p in 0..k {
            let bpj = f64::from(b[p + j * k]);
            for i in 0..m {
                expected[i + j * m] += f64::from(a[i + p * m]) * bpj;
            }
        }
    }

    let a16: Vec<F16> = a.iter().map(|&x| F16::from_f32(x)).collect();
    let b16: Vec<F16> = b.iter().map(|&x| F16::from_f32(x)).collect();
    let da = DeviceBuffer::from_host(&a16);
    let db = DeviceBuffer::from_host(&b16);
    let mut dc = DeviceBuffer::from_host(&vec![-1.0f32; m * n]);

    let mut raw = ptr::null_mut();
    // SAFETY: cublasCreate_v2 writes one handle.
    let status = unsafe { cublasCreate_v2(&mut raw) };
    if status != sys::CUBLAS_STATUS_SUCCESS {
        eprintln!("FAIL: cublasCreate: {}", bwgemm::status_string(status));
        exit(1);
    }
    // SAFETY: a fresh handle, in the default host pointer mode, used only here.
    let handle = unsafe { Handle::from_raw(raw) };
    let shape = GemmShape::packed(Op::N, Op::N, m, n, k);
    if let Err(e) = gemm(
        &handle,
        &shape,
        1.0,
        &da.slice(),
        &db.slice(),
        0.0,
        &mut dc.slice_mut(),
    ) {
        eprintln!("FAIL: gemm: {e}");
        exit(1);
    }
    let info = last_dispatch().expect("bwgemmGetLastDispatch");
    // SAFETY: plain CUDA runtime call.
    cuda(unsafe { cudaDeviceSynchronize() }, "cudaDeviceSynchronize");
    let mut c = vec![0.0f32; m * n];
    dc.to_host(&mut c);
    // SAFETY: the handle is not used after this.
    if unsafe { cublasDestroy_v2(raw) } != sys::CUBLAS_STATUS_SUCCESS {
        eprintln!("FAIL: cublasDestroy");
        exit(1);
    }

    let err = c
        .iter()
        .zip(&expected)
        .map(|(&x, &y)| (f64::from(x) - y).abs())
        .fold(0.0, f64::max);
    println!(
        "gemm {m}x{n}x{k} ran on {:?}{}{} ({}): max |C - host| = {err:e}",
        info.path,
        if info.kernel.is_empty() { "" } else { " " },
        info.kernel,
        info.reason_name
    );
    if err.is_nan() || err > 1e-3 {
        eprintln!("FAIL: result differs from the host loop");
        exit(1);
    }
    println!("ok");
}
