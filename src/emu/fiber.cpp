// SPDX-License-Identifier: MIT
#include "emu/fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace bwgemm::emu {
namespace {

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// makecontext passes int arguments only: the entry and its argument travel
// through these while the fiber starts (one OS thread runs all fibers).
thread_local void (*t_entry)(void*);
thread_local void* t_arg;

void trampoline() {
  void (*entry)(void*) = t_entry;
  void* arg = t_arg;
  entry(arg);
  std::fprintf(stderr, "bwgemm-emu: a fiber's entry returned\n");
  std::abort();
}

}  // namespace

StackPool::~StackPool() {
  for (void* s : free_) munmap(static_cast<uint8_t*>(s) - page_size(), bytes_ + page_size());
}

void StackPool::set_size(size_t bytes) {
  const size_t rounded = (bytes + page_size() - 1) / page_size() * page_size();
  if (rounded == bytes_) return;
  for (void* s : free_) munmap(static_cast<uint8_t*>(s) - page_size(), bytes_ + page_size());
  free_.clear();
  bytes_ = rounded;
}

void* StackPool::acquire() {
  if (!free_.empty()) {
    void* s = free_.back();
    free_.pop_back();
    return s;
  }
  void* region = mmap(nullptr, bytes_ + page_size(), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) {
    std::perror("bwgemm-emu: mmap of a fiber stack");
    std::abort();
  }
  mprotect(region, page_size(), PROT_NONE);
  return static_cast<uint8_t*>(region) + page_size();
}

void StackPool::release(void* stack) { free_.push_back(stack); }

void Fiber::start(void* stack, size_t bytes, void (*entry)(void*), void* arg) {
  stack_ = stack;
  getcontext(&context_);
  context_.uc_stack.ss_sp = stack;
  context_.uc_stack.ss_size = bytes;
  context_.uc_link = nullptr;
  makecontext(&context_, trampoline, 0);
  entry_ = entry;
  arg_ = arg;
}

void Fiber::resume(FiberContext* from) {
  if (entry_ != nullptr) {
    t_entry = entry_;
    t_arg = arg_;
    entry_ = nullptr;
  }
  swapcontext(from, &context_);
}

void Fiber::suspend(FiberContext* to) { swapcontext(&context_, to); }

}  // namespace bwgemm::emu
