// SPDX-License-Identifier: MIT
#include "core/log.h"

#include <cstdarg>
#include <cstdio>

#include "core/env_config.h"

namespace bwgemm {
namespace {

// Copies `text` into `out` with control characters and backslashes written
// as \xNN, truncating at a character boundary.
void escape(const char* text, char* out, size_t size) {
  size_t used = 0;
  for (const unsigned char* p = reinterpret_cast<const unsigned char*>(text); *p != '\0'; ++p) {
    const bool plain = *p >= 0x20 && *p != 0x7f && *p != '\\';
    const size_t width = plain ? 1 : 4;
    if (used + width >= size) break;
    if (plain)
      out[used] = static_cast<char>(*p);
    else
      std::snprintf(out + used, 5, "\\x%02x", *p);
    used += width;
  }
  out[used] = '\0';
}

void vlog(std::FILE* destination, const char* prefix, const char* format, va_list args) {
  char message[1024];
  std::vsnprintf(message, sizeof message, format, args);
  char escaped[4 * sizeof message];
  escape(message, escaped, sizeof escaped);
  // One formatted write per line, so lines from several threads don't mix.
  std::fprintf(destination, "bwgemm: %s%s\n", prefix, escaped);
}

}  // namespace

void log_warning(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(env_config().log_file, "warning: ", format, args);
  va_end(args);
}

void log_line(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(env_config().log_file, "", format, args);
  va_end(args);
}

void log_warning_to(std::FILE* destination, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vlog(destination, "warning: ", format, args);
  va_end(args);
}

}  // namespace bwgemm
