// SPDX-License-Identifier: MIT
// The process environment and files a test needs around bwgemm.
#pragma once

#include <initializer_list>
#include <string>

namespace test {

// Unsets every BWGEMM_* variable bwgemm reads, so a test starts from the
// defaults whatever the shell running it exported.
void clear_bwgemm_environment();

// A new empty file (for BWGEMM_LOG_FILE), removed when this goes away.
class TempFile {
 public:
  TempFile();
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const char* path() const { return path_.c_str(); }
  std::string contents() const;

 private:
  std::string path_;
};

// Lines of `text` that contain every one of `needles`.
int count_lines_with(const std::string& text, std::initializer_list<const char*> needles);

}  // namespace test
