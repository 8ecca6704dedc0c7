// SPDX-License-Identifier: MIT
// Stopping a run with a report: protocol violations (PTX rules broken by the
// kernel), operations the emulator does not model, and deadlocks.
#pragma once

#include <string>

namespace bwgemm::emu {

struct Machine;

// printf-style formatting into a std::string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Records "VIOLATION [ptx_ref]: what" with the current thread's position and
// ends the run: the calling fiber never resumes (on the scheduler, the
// operation in progress unwinds to the scheduler loop).
[[noreturn]] void violation(const char* ptx_ref, const std::string& what);

// The same for a legal operation outside what the emulator models: it stops
// rather than guess.
[[noreturn]] void unmodelled(const char* ptx_ref, const std::string& what);

// Thrown on the scheduler's stack by violation(); caught by the scheduler.
struct SchedulerAbort {};

// Every blocked thread's wait and every barrier's, allocation's and
// asynchronous unit's state, grouped for reading.
std::string deadlock_report(Machine& m);

}  // namespace bwgemm::emu
