// SPDX-License-Identifier: MIT
// The first use of a guarded family on a device, proven in a separate
// process: the helper executable bwgemm-self-check (installed with the
// library in libexec/bwgemm, or lib/<triplet>/bwgemm in the Debian package,
// and found relative to the library's file) runs the self-check
// set (gpu_self_check.h) in a CUDA context of its own, where a trap or an
// illegal address cannot touch the caller's. The caller never waits: a
// background thread waits for the helper while the guard sends the device's
// calls to cuBLAS. The verdict is cached per device UUID, driver version and
// library build in the user's cache directory ($XDG_CACHE_HOME/bwgemm or
// ~/.cache/bwgemm; not in a setuid/setgid process), so the helper runs once
// per machine.
#pragma once

#include <atomic>
#include <string>

#include "core/device_caps.h"

namespace bwgemm {

enum class HelperVerdict : int {
  kRunning,   // the helper has not answered yet
  kPass,      // the kernels matched cuBLAS, the index pattern came out in place
  kFail,      // a mismatch, a crash, a trap, a time-out: the family stays off on the device
  kNoHelper,  // no helper of this build could run the check: check in-process instead
};

// Starts the check of `family_name` on `caps.device` (the calling thread's
// current device) and returns at once; *verdict becomes the answer, from the
// cache or, later, from the helper. Allocates nothing on the GPU and
// synchronizes nothing.
void start_helper_check(const char* family_name, const DeviceCaps& caps,
                        std::atomic<HelperVerdict>* verdict);

// The helper's command line, exit codes and output, shared with its main().
constexpr int kHelperPass = 0;
constexpr int kHelperFail = 1;
constexpr int kHelperCannotCheck = 3;  // another build, no such device: no verdict
// The device's UUID as 32 hex digits; empty when the runtime cannot tell.
std::string device_uuid(int device);

// Tests only: the helper to run instead of the one beside the library (NULL:
// that one), and the limit on its run time.
void set_helper_for_tests(const char* path, int time_limit_seconds);

}  // namespace bwgemm
