// SPDX-License-Identifier: MIT
#include "support/mock_cuda_runtime.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <utility>

namespace mock_cuda {
namespace {

constexpr DeviceAttributes kHopper{9, 0, 132, 232448};

DeviceAttributes g_devices[kDeviceCount];
int g_current = 0;
cudaError_t g_get_device_error = cudaSuccess;
cudaError_t g_attribute_error = cudaSuccess;
cudaError_t g_properties_error = cudaSuccess;
std::atomic<int> g_attribute_queries{0};
std::atomic<int> g_get_device_calls{0};
constexpr int kStreamSlots = 4;
std::pair<cudaStream_t, int> g_stream_devices[kStreamSlots];
int g_stream_count = 0;
cudaStreamCaptureStatus g_capture = cudaStreamCaptureStatusNone;
std::atomic<int> g_device_queries_during_capture{0};
std::atomic<int> g_stream_device_queries{0};
// Each device's current context (its primary one), by id; 0: none.
unsigned long long g_context_ids[kDeviceCount];
std::atomic<int> g_encode_calls{0};
CUresult g_encode_result = CUDA_SUCCESS;

}  // namespace

void set_properties_error(cudaError_t error) { g_properties_error = error; }
void reset() {
  for (DeviceAttributes& d : g_devices) d = kHopper;
  g_current = 0;
  g_get_device_error = cudaSuccess;
  g_attribute_error = cudaSuccess;
  g_properties_error = cudaSuccess;
  g_attribute_queries = 0;
  g_get_device_calls = 0;
  g_stream_count = 0;
  g_capture = cudaStreamCaptureStatusNone;
  g_device_queries_during_capture = 0;
  g_stream_device_queries = 0;
  for (int d = 0; d < kDeviceCount; ++d) g_context_ids[d] = 1 + unsigned(d);
  g_encode_calls = 0;
  g_encode_result = CUDA_SUCCESS;
}

void set_encode_result(CUresult result) { g_encode_result = result; }
int encode_call_count() { return g_encode_calls.load(); }

void set_context_id(unsigned long long id) { g_context_ids[g_current] = id; }

void set_capture_status(cudaStreamCaptureStatus status) { g_capture = status; }
int device_queries_during_capture() { return g_device_queries_during_capture.load(); }
int stream_device_query_count() { return g_stream_device_queries.load(); }

void set_current_device(int device) { g_current = device; }
void set_attributes(int device, DeviceAttributes attributes) { g_devices[device] = attributes; }
void set_get_device_error(cudaError_t error) { g_get_device_error = error; }
void set_attribute_error(cudaError_t error) { g_attribute_error = error; }
void set_stream_device(cudaStream_t stream, int device) {
  g_stream_devices[g_stream_count++ % kStreamSlots] = {stream, device};
}
int attribute_query_count() { return g_attribute_queries.load(); }
int get_device_call_count() { return g_get_device_calls.load(); }

}  // namespace mock_cuda

extern "C" cudaError_t cudaGetDevice(int* device) {
  ++mock_cuda::g_get_device_calls;
  if (mock_cuda::g_get_device_error != cudaSuccess) return mock_cuda::g_get_device_error;
  *device = mock_cuda::g_current;
  return cudaSuccess;
}

// The name (a tuned policy's device) and the UUID (the self-check cache's
// key): bytes a0 + i + 16 * device.
extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (mock_cuda::g_properties_error != cudaSuccess) return mock_cuda::g_properties_error;
  if (device < 0 || device >= mock_cuda::kDeviceCount) return cudaErrorInvalidDevice;
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "mock GPU %d", device);
  for (int i = 0; i < 16; ++i) prop->uuid.bytes[i] = char(0xa0 + i + 16 * device);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  ++mock_cuda::g_attribute_queries;
  if (mock_cuda::g_attribute_error != cudaSuccess) return mock_cuda::g_attribute_error;
  if (device < 0 || device >= mock_cuda::kDeviceCount) return cudaErrorInvalidDevice;
  const mock_cuda::DeviceAttributes& d = mock_cuda::g_devices[device];
  switch (attr) {
    case cudaDevAttrComputeCapabilityMajor: *value = d.cc_major; return cudaSuccess;
    case cudaDevAttrComputeCapabilityMinor: *value = d.cc_minor; return cudaSuccess;
    case cudaDevAttrMultiProcessorCount: *value = d.sm_count; return cudaSuccess;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = d.smem_per_block_optin;
      return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}

extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus* status) {
  *status = mock_cuda::g_capture;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetDevice(cudaStream_t stream, int* device) {
  ++mock_cuda::g_stream_device_queries;
  if (mock_cuda::g_capture != cudaStreamCaptureStatusNone)
    ++mock_cuda::g_device_queries_during_capture;
  for (int i = 0; i < mock_cuda::g_stream_count && i < mock_cuda::kStreamSlots; ++i) {
    if (mock_cuda::g_stream_devices[i].first == stream) {
      *device = mock_cuda::g_stream_devices[i].second;
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidResourceHandle;
}

namespace {

CUresult ctx_get_current(CUcontext* context) {
  unsigned long long& id = mock_cuda::g_context_ids[mock_cuda::g_current];
  *context = id != 0 ? reinterpret_cast<CUcontext>(&id) : nullptr;
  return CUDA_SUCCESS;
}

CUresult ctx_get_id(CUcontext context, unsigned long long* id) {
  *id = *reinterpret_cast<const unsigned long long*>(context);
  return CUDA_SUCCESS;
}

// The driver's answer is the runtime's (cudaStreamIsCapturing above).
CUresult stream_is_capturing(CUstream, CUstreamCaptureStatus* status) {
  *status = CUstreamCaptureStatus(mock_cuda::g_capture);
  return CUDA_SUCCESS;
}

// A map whose words are the arguments that vary (mock_cuda_runtime.h).
CUresult encode_tiled(CUtensorMap* map, CUtensorMapDataType dtype, cuuint32_t rank, void* base,
                      const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                      const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle swizzle,
                      CUtensorMapL2promotion promotion, CUtensorMapFloatOOBfill) {
  ++mock_cuda::g_encode_calls;
  if (mock_cuda::g_encode_result != CUDA_SUCCESS || rank != 3) return mock_cuda::g_encode_result;
  const cuuint64_t words[16] = {reinterpret_cast<cuuint64_t>(base),
                                dims[0],
                                dims[1],
                                dims[2],
                                strides[0],
                                strides[1],
                                box[0],
                                box[1],
                                box[2],
                                cuuint64_t(dtype),
                                cuuint64_t(swizzle),
                                cuuint64_t(promotion)};
  for (int i = 0; i < 16; ++i) map->opaque[i] = words[i];
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" cudaError_t cudaGetDriverEntryPointByVersion(const char* symbol, void** function,
                                                        unsigned int, unsigned long long,
                                                        cudaDriverEntryPointQueryResult* status) {
  const std::string name = symbol;
  *function = name == "cuCtxGetCurrent"          ? reinterpret_cast<void*>(ctx_get_current)
              : name == "cuCtxGetId"             ? reinterpret_cast<void*>(ctx_get_id)
              : name == "cuStreamIsCapturing"    ? reinterpret_cast<void*>(stream_is_capturing)
              : name == "cuTensorMapEncodeTiled" ? reinterpret_cast<void*>(encode_tiled)
                                                 : nullptr;
  *status = *function != nullptr ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}
