// SPDX-License-Identifier: MIT
#include "gpu_info.h"

#include <dlfcn.h>

#include "common.h"

namespace bench {
namespace {

// The few NVML declarations used, as nvml.h has them (enums are int-sized).
using NvmlReturn = int;          // NVML_SUCCESS == 0
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM
using NvmlInit = NvmlReturn (*)();
using NvmlShutdown = NvmlReturn (*)();
using NvmlErrorString = const char* (*)(NvmlReturn);
using NvmlGetHandleByPciBusId = NvmlReturn (*)(const char*, void**);
using NvmlGetClock = NvmlReturn (*)(void*, int, unsigned*);

template <class Fn>
Fn symbol(void* lib, const char* name) {
  return reinterpret_cast<Fn>(dlsym(lib, name));
}

std::string cuda_version_name(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

GpuInfo query_gpu(int device) {
  GpuInfo g;
  g.device = device;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDeviceProperties(&prop, device));
  g.name = prop.name;
  g.sm_count = prop.multiProcessorCount;
  g.cc_major = prop.major;
  g.cc_minor = prop.minor;
  g.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
  g.memory_bytes = prop.totalGlobalMem;
  char bus[32] = {};
  BENCH_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  g.pci_bus_id = bus;
  int v = 0;
  BENCH_CUDA(cudaDriverGetVersion(&v));
  g.driver_version = cuda_version_name(v);
  BENCH_CUDA(cudaRuntimeGetVersion(&v));
  g.runtime_version = cuda_version_name(v);
  return g;
}

SmClock::SmClock(const std::string& pci_bus_id) {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib_ == nullptr) {
    unavailable_ = "libnvidia-ml.so.1 not found";
    return;
  }
  auto init = symbol<NvmlInit>(lib_, "nvmlInit_v2");
  auto by_bus = symbol<NvmlGetHandleByPciBusId>(lib_, "nvmlDeviceGetHandleByPciBusId_v2");
  auto error_string = symbol<NvmlErrorString>(lib_, "nvmlErrorString");
  if (init == nullptr || by_bus == nullptr || error_string == nullptr) {
    unavailable_ = "NVML lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
    return;
  }
  if (NvmlReturn r = init(); r != 0) {
    unavailable_ = std::string("nvmlInit: ") + error_string(r);
    return;
  }
  initialized_ = true;
  // By PCI bus id, because NVML numbers GPUs without CUDA_VISIBLE_DEVICES.
  if (NvmlReturn r = by_bus(pci_bus_id.c_str(), &device_); r != 0) {
    unavailable_ = std::string("nvmlDeviceGetHandleByPciBusId: ") + error_string(r);
    device_ = nullptr;
  }
}

SmClock::~SmClock() {
  if (lib_ == nullptr) return;
  if (auto shutdown = symbol<NvmlShutdown>(lib_, "nvmlShutdown"); shutdown && initialized_)
    shutdown();
  dlclose(lib_);
}

unsigned SmClock::query(bool max) const {
  if (device_ == nullptr) return 0;
  auto get =
      symbol<NvmlGetClock>(lib_, max ? "nvmlDeviceGetMaxClockInfo" : "nvmlDeviceGetClockInfo");
  unsigned mhz = 0;
  return get != nullptr && get(device_, kNvmlClockSm, &mhz) == 0 ? mhz : 0;
}

unsigned SmClock::current() const { return query(false); }
unsigned SmClock::max() const { return query(true); }

std::string SmClock::describe() const {
  if (device_ == nullptr) return "n/a (" + unavailable_ + ")";
  const unsigned now = current(), top = max();
  return (now ? std::to_string(now) + " MHz" : std::string("n/a")) + " (max " +
         (top ? std::to_string(top) + " MHz" : std::string("n/a")) + ")";
}

}  // namespace bench
