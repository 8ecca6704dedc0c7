// SPDX-License-Identifier: MIT
// bwgemm's log lines: warnings always, decisions when BWGEMM_LOG asks. Every
// line is one write with its control characters escaped (\xNN), so text that
// came from a caller or the environment cannot forge or split log lines.
#pragma once

#include <cstdio>

namespace bwgemm {

// "bwgemm: warning: ..." to the log destination, whatever BWGEMM_LOG says.
void log_warning(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "bwgemm: ..." to the log destination.
void log_line(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "bwgemm: warning: ..." to `destination` (while the log destination itself
// is being chosen).
void log_warning_to(std::FILE* destination, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

}  // namespace bwgemm
