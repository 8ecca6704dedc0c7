// SPDX-License-Identifier: MIT
// What the report says about the machine: the GPU, the driver and runtime, and
// the SM clock, read through NVML when it is there. NVML is opened with dlopen
// so the binary does not need it to link or start.
#ifndef BWGEMM_BENCH_GPU_INFO_H
#define BWGEMM_BENCH_GPU_INFO_H

#include <string>

namespace bench {

struct GpuInfo {
  int device = 0;
  std::string name;
  std::string pci_bus_id;
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
  size_t l2_bytes = 0;
  size_t memory_bytes = 0;
  std::string driver_version;   // CUDA version the driver supports, "13.0"
  std::string runtime_version;  // the CUDA runtime the bench runs on
};

GpuInfo query_gpu(int device);

// SM clocks of one GPU in MHz; 0 when NVML is missing or does not answer.
class SmClock {
 public:
  explicit SmClock(const std::string& pci_bus_id);
  ~SmClock();
  SmClock(const SmClock&) = delete;
  SmClock& operator=(const SmClock&) = delete;

  unsigned current() const;
  unsigned max() const;
  // "1755 MHz (max 1980 MHz)", or "n/a (why)".
  std::string describe() const;

 private:
  unsigned query(bool max) const;

  void* lib_ = nullptr;
  bool initialized_ = false;  // nvmlInit succeeded, so nvmlShutdown is owed
  void* device_ = nullptr;    // nvmlDevice_t
  std::string unavailable_;
};

}  // namespace bench

#endif  // BWGEMM_BENCH_GPU_INFO_H
