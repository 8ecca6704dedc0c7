// SPDX-License-Identifier: MIT
// bwgemm-self-check FAMILY DEVICE UUID BUILD: the first use of a guarded
// kernel family on a device, in a process of its own (dispatch/helper_check.h
// starts it, with LD_PRELOAD and BWGEMM_* removed from its environment). Runs
// the self-check set (dispatch/gpu_self_check.h) on device DEVICE, which must
// have UUID, with this build's kernels, which must be the library's (BUILD).
// Prints "pass", or "fail: why" (exit 1), or "cannot check: why" (exit 3). A
// trap or an illegal address kills only this process.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/device_caps.h"
#include "dispatch/gpu_self_check.h"
#include "dispatch/helper_check.h"
#include "dispatch/registry.h"

namespace {

int cannot_check(const char* why, const char* detail = "") {
  std::printf("cannot check: %s%s\n", why, detail);
  return bwgemm::kHelperCannotCheck;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bwgemm;
  if (argc != 5) return cannot_check("usage: bwgemm-self-check FAMILY DEVICE UUID BUILD");
  if (std::strcmp(argv[4], BWGEMM_BUILD_ID) != 0)
    return cannot_check("the helper is of another build than the library: ", BWGEMM_BUILD_ID);
  const int device = std::atoi(argv[2]);
  if (cudaSetDevice(device) != cudaSuccess || device_uuid(device) != argv[3])
    return cannot_check("no device of that number and UUID");
  DeviceCaps caps;
  if (!current_device_caps(&caps)) return cannot_check("the device cannot be queried");
  const KernelFamily* family = nullptr;
  const KernelFamilyList families = registered_kernel_families();
  for (int i = 0; i < families.count; ++i)
    if (std::strcmp(families.items[i]->name, argv[1]) == 0) family = families.items[i];
  if (family == nullptr || !family->runs_on(caps))
    return cannot_check("no such kernel family for this device: ", argv[1]);
  uint32_t* host_flag = nullptr;
  uint32_t* device_flag = nullptr;
  if (cudaHostAlloc(reinterpret_cast<void**>(&host_flag), sizeof(uint32_t), cudaHostAllocMapped) !=
          cudaSuccess ||
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), host_flag, 0) != cudaSuccess)
    return cannot_check("cannot allocate the error flag");
  *host_flag = 0;
  std::string failure;
  if (!gpu_self_check(*family, caps, {device_flag, 1}, host_flag, &failure)) {
    std::printf("fail: %s\n", failure.c_str());
    return kHelperFail;
  }
  std::printf("pass\n");
  return kHelperPass;
}
