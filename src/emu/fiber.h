// SPDX-License-Identifier: MIT
// Cooperative fibers (ucontext) with guarded, pooled stacks: one per
// emulated GPU thread, all on the OS thread that runs the virtual GPU.
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <vector>

namespace bwgemm::emu {

using FiberContext = ucontext_t;

// mmap'd stacks with a PROT_NONE guard page below each, so an overflow
// faults instead of corrupting a neighbour; reused across launches.
class StackPool {
 public:
  explicit StackPool(size_t bytes = 0) : bytes_(bytes) {}
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();
  void set_size(size_t bytes);
  void* acquire();
  void release(void* stack);
  size_t size() const { return bytes_; }

 private:
  size_t bytes_;
  std::vector<void*> free_;
};

class Fiber {
 public:
  // Prepares the fiber to run entry(arg) on `stack`; when entry returns the
  // fiber must already have switched away for good (entry never returns).
  void start(void* stack, size_t bytes, void (*entry)(void*), void* arg);
  // Switches from `from` into this fiber / from this fiber to `to`.
  void resume(FiberContext* from);
  void suspend(FiberContext* to);
  void* stack() const { return stack_; }

 private:
  FiberContext context_{};
  void* stack_ = nullptr;
  void (*entry_)(void*) = nullptr;  // until the first resume
  void* arg_ = nullptr;
};

}  // namespace bwgemm::emu
