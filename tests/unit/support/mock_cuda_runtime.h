// SPDX-License-Identifier: MIT
// The unit tests' CUDA runtime: cudaGetDevice, cudaDeviceGetAttribute and
// cudaStreamGetDevice, the only runtime calls bwgemm_core makes, answered from a table the test
// controls. No GPU, driver or libcudart is involved.
#pragma once

#include <cuda.h>
#include <driver_types.h>

namespace mock_cuda {

struct DeviceAttributes {
  int cc_major, cc_minor;
  int sm_count;
  int smem_per_block_optin;
};

constexpr int kDeviceCount = 8;

// Device 0 current; every device an sm_90 with 132 SMs and 227 KiB of opt-in
// shared memory; no errors; counters zero.
void reset();
void set_current_device(int device);
void set_attributes(int device, DeviceAttributes attributes);
// Errors cudaGetDevice / cudaDeviceGetAttribute return from now on
// (cudaSuccess: answer normally).
void set_get_device_error(cudaError_t error);
void set_attribute_error(cudaError_t error);
// The error cudaGetDeviceProperties returns from now on (cudaSuccess: the
// name "mock GPU <device>" and UUID bytes a0 + i + 16 * device).
void set_properties_error(cudaError_t error);
// The device cudaStreamGetDevice reports for `stream` (unknown streams:
// cudaErrorInvalidResourceHandle).
void set_stream_device(cudaStream_t stream, int device);
// What cudaStreamIsCapturing (and cuStreamIsCapturing, through
// cudaGetDriverEntryPointByVersion) reports for every stream (default: none), and
// cudaStreamGetDevice calls made while it reports a capture (they would end
// a real capture).
void set_capture_status(cudaStreamCaptureStatus status);
int device_queries_during_capture();
// cudaStreamGetDevice calls since reset().
int stream_device_query_count();
// cudaDeviceGetAttribute calls since reset(), from all threads.
int attribute_query_count();
// cudaGetDevice calls since reset(), from all threads (the first one of a
// process initialises a real runtime).
int get_device_call_count();
// The id cuCtxGetId (through cudaGetDriverEntryPointByVersion) reports for
// the current device's context from now on; 0: no current context (default:
// device d's is 1 + d).
void set_context_id(unsigned long long id);
// cuTensorMapEncodeTiled (through the same query): writes the map's words
// as base, dims[0..2], strides[0..1], box[0..2], dtype, swizzle, L2
// promotion (then zeros), or returns the result set here instead (default CUDA_SUCCESS);
// calls since reset(), from all threads.
void set_encode_result(CUresult result);
int encode_call_count();

}  // namespace mock_cuda
