// SPDX-License-Identifier: MIT
// src/dispatch/helper_check.cpp with fake helper executables (shell scripts)
// and the CUDA runtime mocked: the caller never waits (the verdict arrives
// later, from a background thread); a helper that crashes, traps (is killed
// by a signal), reports a mismatch or runs past its time limit fails the
// device with a warning; a pass is cached per device UUID, driver and build
// and read back without running the helper again; the helper's environment
// has no LD_PRELOAD and no BWGEMM_*; a setuid process caches nothing; a
// missing helper means "check in this process".
#include <cuda_runtime_api.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "core/env_config.h"
#include "dispatch/helper_check.h"
#include "support/cmocka_cxx.h"
#include "support/test_env.h"

using bwgemm::HelperVerdict;

// cudaGetDeviceProperties is the mock runtime's: UUID bytes a0 + i + 16 * device.
extern "C" {
cudaError_t cudaDriverGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}
}

namespace {

struct Dir {
  std::string path;
  Dir() {
    char t[] = "/tmp/bwgemm-helper-test-XXXXXX";
    path = mkdtemp(t);
  }
  ~Dir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A helper script: `body` runs with the helper's arguments.
std::string helper(const Dir& dir, const char* name, const std::string& body) {
  const std::string path = dir.path + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  chmod(path.c_str(), 0700);
  return path;
}

HelperVerdict wait_for(const std::atomic<HelperVerdict>& v) {
  for (int i = 0; i < 400 && v.load() == HelperVerdict::kRunning; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  return v.load();
}

bwgemm::DeviceCaps device(int index) { return {index, 10, 0, 148, 232448}; }

struct State {
  Dir dir;
  test::TempFile log;
  std::string cache;
};

int set_up(void** state) {
  test::clear_bwgemm_environment();
  auto* s = new State;
  s->cache = s->dir.path + "/cache";
  setenv("BWGEMM_LOG_FILE", s->log.path(), 1);
  setenv("XDG_CACHE_HOME", s->cache.c_str(), 1);
  bwgemm::set_secure_execution_probe(nullptr);
  bwgemm::env_config_reload();
  *state = s;
  return 0;
}

int tear_down(void** state) {
  bwgemm::set_helper_for_tests(nullptr, 300);
  unsetenv("XDG_CACHE_HOME");
  bwgemm::set_secure_execution_probe(nullptr);
  delete static_cast<State*>(*state);
  return 0;
}

State& st(void** state) { return *static_cast<State*>(*state); }

// The defect a separate process contains: a trap or an illegal address in
// the first sm100 kernel killed the caller's process.
void a_crashing_helper_fails_the_device_and_the_caller_lives(void** state) {
  bwgemm::set_helper_for_tests(helper(st(state).dir, "crash", "kill -SEGV $$").c_str(), 60);
  std::atomic<HelperVerdict> v{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(0), &v);
  assert_int_equal(int(wait_for(v)), int(HelperVerdict::kFail));
  const std::string log = read_file(st(state).log.path());
  assert_int_equal(test::count_lines_with(log, {"bwgemm: warning: ", "sm100 self-check on device 0",
                                                "helper process", "killed by signal 11"}),
                   1);
  // Cached: the next start (another process, say) answers at once, with a
  // warning saying how to check again.
  bwgemm::set_helper_for_tests(helper(st(state).dir, "pass", "echo pass").c_str(), 60);
  std::atomic<HelperVerdict> again{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(0), &again);
  assert_int_equal(int(again.load()), int(HelperVerdict::kFail));
  assert_int_equal(test::count_lines_with(read_file(st(state).log.path()),
                                          {"failed on this machine before", "delete"}),
                   1);
}

// The caller does not wait: the verdict is still running when start returns.
void the_caller_never_waits_and_a_pass_is_cached(void** state) {
  const std::string flag = st(state).dir.path + "/go";
  bwgemm::set_helper_for_tests(
      helper(st(state).dir, "slow", "while [ ! -e '" + flag + "' ]; do sleep 0.05; done\necho pass")
          .c_str(),
      60);
  std::atomic<HelperVerdict> v{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(1), &v);
  assert_int_equal(int(v.load()), int(HelperVerdict::kRunning));
  std::ofstream(flag) << "";
  assert_int_equal(int(wait_for(v)), int(HelperVerdict::kPass));
  // One file per family, device UUID, driver and build (its id, and the
  // library file's size and time), private to the user.
  const std::string dir = st(state).cache + "/bwgemm";
  const std::string prefix =
      std::string("self-check-sm100-b0b1b2b3b4b5b6b7b8b9babbbcbdbebf-13000-") + BWGEMM_BUILD_ID +
      "-";
  std::string file;
  DIR* d = opendir(dir.c_str());
  assert_non_null(d);
  while (const dirent* e = readdir(d))
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) file = dir + "/" + e->d_name;
  closedir(d);
  assert_false(file.empty());
  assert_string_equal(read_file(file).c_str(), "pass\n");
  struct stat s {};
  assert_int_equal(stat(file.c_str(), &s), 0);
  assert_int_equal(s.st_mode & 0777, 0600);
  assert_int_equal(stat((st(state).cache + "/bwgemm").c_str(), &s), 0);
  assert_int_equal(s.st_mode & 0777, 0700);
  // Read back without running a helper (this one would fail).
  bwgemm::set_helper_for_tests(helper(st(state).dir, "crash", "kill -SEGV $$").c_str(), 60);
  std::atomic<HelperVerdict> again{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(1), &again);
  assert_int_equal(int(again.load()), int(HelperVerdict::kPass));
  // Another device (another UUID) is checked on its own.
  std::atomic<HelperVerdict> other{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(2), &other);
  assert_int_equal(int(wait_for(other)), int(HelperVerdict::kFail));
  assert_int_equal(test::count_lines_with(read_file(st(state).log.path()), {"warning"}), 1);
}

void a_mismatch_or_a_time_out_fails_the_device(void** state) {
  bwgemm::set_helper_for_tests(
      helper(st(state).dir, "mismatch",
             "echo 'fail: index pattern: element (256, 0) holds the value of element (0, 0)'\n"
             "exit 1")
          .c_str(),
      60);
  std::atomic<HelperVerdict> v{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(3), &v);
  assert_int_equal(int(wait_for(v)), int(HelperVerdict::kFail));
  bwgemm::set_helper_for_tests(helper(st(state).dir, "hang", "exec sleep 30").c_str(), 1);
  std::atomic<HelperVerdict> hang{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(4), &hang);
  assert_int_equal(int(wait_for(hang)), int(HelperVerdict::kFail));
  const std::string log = read_file(st(state).log.path());
  assert_int_equal(test::count_lines_with(log, {"device 3", "holds the value of element (0, 0)"}),
                   1);
  assert_int_equal(test::count_lines_with(log, {"device 4", "did not finish in 1 s"}), 1);
}

// The helper gets its arguments (family, device, UUID, build) and an
// environment without LD_PRELOAD and BWGEMM_*.
void the_helper_runs_without_ld_preload_and_bwgemm_variables(void** state) {
  const std::string out = st(state).dir.path + "/seen";
  bwgemm::set_helper_for_tests(
      helper(st(state).dir, "env", "echo \"$@\" > '" + out + "'\nenv >> '" + out + "'\necho pass")
          .c_str(),
      60);
  setenv("LD_PRELOAD", "/nonexistent/libnothing.so", 1);
  setenv("BWGEMM_POLICY", "kernel", 1);
  setenv("BWGEMM_TEST_MARK", "x", 1);
  setenv("OTHER_VARIABLE", "kept", 1);
  std::atomic<HelperVerdict> v{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(5), &v);
  const HelperVerdict verdict = wait_for(v);
  unsetenv("LD_PRELOAD");
  unsetenv("BWGEMM_POLICY");
  unsetenv("BWGEMM_TEST_MARK");
  unsetenv("OTHER_VARIABLE");
  assert_int_equal(int(verdict), int(HelperVerdict::kPass));
  const std::string seen = read_file(out);
  const std::string args =
      std::string("sm100 5 f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff ") + BWGEMM_BUILD_ID + "\n";
  assert_string_equal(seen.substr(0, seen.find('\n') + 1).c_str(), args.c_str());
  assert_null(std::strstr(seen.c_str(), "LD_PRELOAD"));
  assert_null(std::strstr(seen.c_str(), "BWGEMM_"));
  assert_non_null(std::strstr(seen.c_str(), "OTHER_VARIABLE=kept"));
}

bool secure() { return true; }

void a_setuid_process_caches_nothing_and_a_missing_helper_checks_in_process(void** state) {
  bwgemm::set_secure_execution_probe(secure);
  bwgemm::env_config_reload();
  bwgemm::set_helper_for_tests(helper(st(state).dir, "pass", "echo pass").c_str(), 60);
  std::atomic<HelperVerdict> v{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(6), &v);
  assert_int_equal(int(wait_for(v)), int(HelperVerdict::kPass));
  struct stat s {};
  assert_int_not_equal(stat((st(state).cache + "/bwgemm").c_str(), &s), 0);
  bwgemm::set_secure_execution_probe(nullptr);
  bwgemm::env_config_reload();
  // No helper: check in this process, and say so.
  bwgemm::set_helper_for_tests((st(state).dir.path + "/missing").c_str(), 60);
  std::atomic<HelperVerdict> none{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(7), &none);
  assert_int_equal(int(none.load()), int(HelperVerdict::kNoHelper));
  // A helper of another build cannot check: in process too.
  bwgemm::set_helper_for_tests(
      helper(st(state).dir, "other", "echo 'cannot check: another build'\nexit 3").c_str(), 60);
  std::atomic<HelperVerdict> other{HelperVerdict::kRunning};
  bwgemm::start_helper_check("sm100", device(7), &other);
  assert_int_equal(int(wait_for(other)), int(HelperVerdict::kNoHelper));
  const std::string log = read_file(st(state).log.path());
  assert_int_equal(test::count_lines_with(log, {"device 7", "not found", "in this process"}), 1);
  assert_int_equal(test::count_lines_with(log, {"could not check device 7", "another build"}), 1);
}

}  // namespace

#define TEST(f) cmocka_unit_test_setup_teardown(f, set_up, tear_down)

int main() {
  const struct CMUnitTest tests[] = {
      TEST(a_crashing_helper_fails_the_device_and_the_caller_lives),
      TEST(the_caller_never_waits_and_a_pass_is_cached),
      TEST(a_mismatch_or_a_time_out_fails_the_device),
      TEST(the_helper_runs_without_ld_preload_and_bwgemm_variables),
      TEST(a_setuid_process_caches_nothing_and_a_missing_helper_checks_in_process),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
