// SPDX-License-Identifier: MIT
// src/core/env_config.cpp and log.cpp against a hostile environment: a
// setuid/setgid process (AT_SECURE, through the probe seam) honours only
// BWGEMM_LOG and BWGEMM_DISABLE; the log file is opened without following a
// symbolic link, private (0600), close-on-exec, with a failure reported once
// on stderr; logged text cannot forge lines. No GEMM is called here.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "core/env_config.h"
#include "core/log.h"
#include "support/cmocka_cxx.h"
#include "support/test_env.h"

using test::TempDir;

namespace {

bool secure() { return true; }

int set_up(void** state) {
  test::clear_bwgemm_environment();
  bwgemm::set_secure_execution_probe(nullptr);
  *state = new TempDir;
  return 0;
}

int tear_down(void** state) {
  test::clear_bwgemm_environment();
  bwgemm::set_secure_execution_probe(nullptr);
  bwgemm::env_config_reload();
  delete static_cast<TempDir*>(*state);
  return 0;
}

TempDir& dir(void** state) { return *static_cast<TempDir*>(*state); }

std::string reload_and_capture_stderr() {
  return test::capture_stderr([] { bwgemm::env_config_reload(); });
}

void secure_process_honours_only_log_and_disable(void** state) {
  const std::string log = dir(state).path("log");
  setenv("BWGEMM_LOG_FILE", log.c_str(), 1);
  setenv("BWGEMM_CUBLAS_LIBRARY", "/tmp/evil.so", 1);
  setenv("BWGEMM_POLICY", "cublas", 1);
  setenv("BWGEMM_SM90", "off", 1);
  setenv("BWGEMM_LOG", "2", 1);
  setenv("BWGEMM_DISABLE", "1", 1);
  setenv("BWGEMM_WAIT_TIMEOUT_MS", "600000", 1);
  bwgemm::set_secure_execution_probe(secure);
  const std::string err = reload_and_capture_stderr();

  const bwgemm::EnvConfig& env = bwgemm::env_config();
  assert_null(env.cublas_library);
  assert_ptr_equal(env.log_file, stderr);
  assert_int_equal(env.policy, BWGEMM_POLICY_AUTO);
  assert_false(env.sm90_off);
  assert_int_equal(env.log_level, 2);
  assert_true(env.disable);
  assert_int_equal(env.wait_timeout_ms, bwgemm::kDefaultWaitTimeoutMs);
  assert_int_not_equal(access(log.c_str(), F_OK), 0);
  // One notice naming what was ignored.
  assert_int_equal(test::count_lines_with(err, {"bwgemm: ", "setuid"}), 1);
  assert_int_equal(test::count_lines_with(err, {"BWGEMM_LOG_FILE", "BWGEMM_CUBLAS_LIBRARY",
                                                "BWGEMM_POLICY", "BWGEMM_WAIT_TIMEOUT_MS"}),
                   1);
}

void ordinary_process_honours_every_variable(void** state) {
  const std::string log = dir(state).path("log");
  setenv("BWGEMM_LOG_FILE", log.c_str(), 1);
  setenv("BWGEMM_CUBLAS_LIBRARY", "/opt/cublas.so", 1);
  setenv("BWGEMM_POLICY", "cublas", 1);
  const std::string err = reload_and_capture_stderr();
  const bwgemm::EnvConfig& env = bwgemm::env_config();
  assert_string_equal(env.cublas_library, "/opt/cublas.so");
  assert_ptr_not_equal(env.log_file, stderr);
  assert_int_equal(env.policy, BWGEMM_POLICY_FORCE_CUBLAS);
  assert_true(err.empty());
}

void log_file_is_created_private_and_close_on_exec(void** state) {
  const std::string log = dir(state).path("log");
  setenv("BWGEMM_LOG_FILE", log.c_str(), 1);
  const mode_t old_umask = umask(022);
  bwgemm::env_config_reload();
  umask(old_umask);
  struct stat st {};
  assert_int_equal(stat(log.c_str(), &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
  const int flags = fcntl(fileno(bwgemm::env_config().log_file), F_GETFD);
  assert_true(flags >= 0 && (flags & FD_CLOEXEC) != 0);
}

void log_file_symlink_is_refused_once_on_stderr(void** state) {
  const std::string target = dir(state).path("target");
  const std::string link = dir(state).path("link");
  assert_int_equal(symlink(target.c_str(), link.c_str()), 0);
  setenv("BWGEMM_LOG_FILE", link.c_str(), 1);
  const std::string err = reload_and_capture_stderr();
  assert_ptr_equal(bwgemm::env_config().log_file, stderr);
  assert_int_not_equal(access(target.c_str(), F_OK), 0);
  assert_int_equal(test::count_lines_with(err, {"bwgemm: warning: ", "BWGEMM_LOG_FILE", "link"}),
                   1);
}

void unopenable_log_file_is_reported_once_on_stderr(void** state) {
  const std::string missing = dir(state).path("no/such/dir/log");
  setenv("BWGEMM_LOG_FILE", missing.c_str(), 1);
  const std::string err = reload_and_capture_stderr();
  assert_ptr_equal(bwgemm::env_config().log_file, stderr);
  assert_int_equal(test::count_lines_with(err, {"bwgemm: warning: ", "no/such/dir/log"}), 1);
  assert_int_equal(test::count_lines_with(err, {"bwgemm: "}), 1);
}

// A library path or message with a newline and an escape sequence stays on
// its one line.
void logged_control_characters_are_escaped(void** state) {
  const std::string log = dir(state).path("log");
  setenv("BWGEMM_LOG_FILE", log.c_str(), 1);
  bwgemm::env_config_reload();
  bwgemm::log_warning("cannot open %s", "lib.so\nbwgemm: forged line\x1b[2K\r\\");
  bwgemm::log_line("%s", "tab\there");
  const std::string text = test::read_file(log);
  assert_string_equal(text.c_str(),
                      "bwgemm: warning: cannot open lib.so\\x0abwgemm: forged "
                      "line\\x1b[2K\\x0d\\x5c\n"
                      "bwgemm: tab\\x09here\n");
}

// Values from the environment are escaped in the warnings about them.
void warning_about_a_value_escapes_it(void** state) {
  const std::string log = dir(state).path("log");
  setenv("BWGEMM_LOG_FILE", log.c_str(), 1);
  setenv("BWGEMM_POLICY", "x\nbwgemm: forged", 1);
  bwgemm::env_config_reload();
  const std::string text = test::read_file(log);
  assert_int_equal(test::count_lines_with(text, {"bwgemm: "}), 1);
  assert_int_equal(test::count_lines_with(text, {"BWGEMM_POLICY=x\\x0abwgemm: forged"}), 1);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup_teardown(f, set_up, tear_down)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(secure_process_honours_only_log_and_disable),
      TEST(ordinary_process_honours_every_variable),
      TEST(log_file_is_created_private_and_close_on_exec),
      TEST(log_file_symlink_is_refused_once_on_stderr),
      TEST(unopenable_log_file_is_reported_once_on_stderr),
      TEST(logged_control_characters_are_escaped),
      TEST(warning_about_a_value_escapes_it),
  };
  return cmocka_run_group_tests_name("env_secure", tests, nullptr, nullptr);
}
