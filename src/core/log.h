// SPDX-License-Identifier: MIT
// bwgemm's log lines: warnings always, decisions when BWGEMM_LOG asks.
#pragma once

namespace bwgemm {

// "bwgemm: warning: ..." to the log destination, whatever BWGEMM_LOG says.
void log_warning(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "bwgemm: ..." to the log destination.
void log_line(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace bwgemm
