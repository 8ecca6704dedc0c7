// SPDX-License-Identifier: MIT
#include "core/log.h"

#include <cstdarg>
#include <cstdio>

#include "core/env_config.h"

namespace bwgemm {
namespace {

void vlog(const char* prefix, const char* format, va_list args) {
  // One formatted write per line, so lines from several threads don't mix.
  char line[1024];
  int used = std::snprintf(line, sizeof line, "bwgemm: %s", prefix);
  if (used < 0) return;
  std::vsnprintf(line + used, sizeof line - static_cast<size_t>(used), format, args);
  std::fprintf(env_config().log_file, "%s\n", line);
}

}  // namespace

void log_warning(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog("warning: ", format, args);
  va_end(args);
}

void log_line(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog("", format, args);
  va_end(args);
}

}  // namespace bwgemm
