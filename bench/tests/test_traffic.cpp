// SPDX-License-Identifier: MIT
// The bench's arithmetic on the CPU: bytes moved, effective and copy
// bandwidth, the operand-set count, and the decode suite's shapes.
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "suites.h"
#include "traffic.h"

namespace {

int g_failures = 0;

void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::fprintf(stderr, "test_traffic:%d: FAIL: %s\n", line, what);
  ++g_failures;
}
#define CHECK(cond) check((cond), #cond, __LINE__)

bool near(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); }

bench::Shape shape(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  bench::Shape s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.batch = batch;
  return s;
}

void bytes_moved_counts_a_b_c_and_d() {
  // 4096 x 16 x 4096 in 16-bit: A 4096*4096, B 4096*16, D 4096*16 elements.
  CHECK(bench::bytes_moved(shape(4096, 16, 4096), false) == 33816576.0);
  // beta != 0 reads C as well: 4096*16 more elements.
  CHECK(bench::bytes_moved(shape(4096, 16, 4096), true) == 33947648.0);
  // m, n and k each in their place: 2*(3*5 + 5*7 + 3*7) bytes.
  CHECK(bench::bytes_moved(shape(3, 7, 5), false) == 142.0);
  CHECK(bench::bytes_moved(shape(3, 7, 5, 4), false) == 4 * 142.0);
  // Padding between rows and the leading dimension is not traffic.
  bench::Shape padded = shape(4095, 4097, 4096);
  padded.ld = bench::LdMode::kPad8;
  CHECK(bench::bytes_moved(padded, false) == bench::bytes_moved(shape(4095, 4097, 4096), false));
}

void bandwidths_in_terabytes_per_second() {
  CHECK(near(bench::terabytes_per_second(33816576.0, 10.0), 3.3816576));
  CHECK(std::isnan(bench::terabytes_per_second(1e6, 0.0)));
  CHECK(std::isnan(bench::terabytes_per_second(1e6, std::nan(""))));
  // 1 GiB copied in 500 us moves 2 GiB: 4.294967296 TB/s.
  CHECK(near(bench::copy_terabytes_per_second(size_t{1} << 30, 500.0), 4.294967296));
}

void operand_sets_exceed_three_l2() {
  const size_t h100_l2 = 50u << 20, l2_60 = 60u << 20, weight = 32u << 20;
  CHECK(bench::operand_sets(weight, h100_l2) == 5);  // 150 MiB / 32 MiB = 4.7
  CHECK(bench::operand_sets(weight, l2_60) == 6);    // 180 MiB / 32 MiB = 5.6
  CHECK(bench::operand_sets(h100_l2, h100_l2) == 3);
  CHECK(bench::operand_sets(3 * h100_l2, h100_l2) == 1);
  CHECK(bench::operand_sets(size_t{1} << 34, h100_l2) == 1);
  CHECK(bench::operand_sets(1024, h100_l2) == bench::kMaxSets);
  CHECK(bench::operand_sets(0, h100_l2) == bench::kMaxSets);
  // Below the cap: the fewest sets that make 3x the L2.
  for (size_t set = 1u << 20; set < (400u << 20); set += 7u << 20) {
    const size_t sets = static_cast<size_t>(bench::operand_sets(set, l2_60));
    if (sets == static_cast<size_t>(bench::kMaxSets)) continue;
    CHECK(sets * set >= bench::kFootprintPerL2 * l2_60);
    CHECK(sets == 1 || (sets - 1) * set < bench::kFootprintPerL2 * l2_60);
  }
}

void set_bytes_cover_the_padded_operands() {
  // 4095 x 4097 x 4096 TN padded: lda = ldb = 4096, ldc = 4096; 2 batches.
  bench::Shape s = shape(4095, 4097, 4096, 2);
  s.ld = bench::LdMode::kPad8;
  const bench::SetBytes b = bench::set_bytes(s, bench::layout_of(s));
  CHECK(b.a == 2u * 4096 * 4095 * 2);  // lda x m (A^T), 2 batches, 2 bytes
  CHECK(b.b == 2u * 4096 * 4097 * 2);
  CHECK(b.c == 2u * 4096 * 4097 * 2);
  CHECK(b.total() == b.a + b.b + b.c);
  // Rounded up to 256 bytes: 3 x 5 elements of 2 bytes.
  const bench::Shape tiny = shape(3, 7, 5);
  const bench::SetBytes t = bench::set_bytes(tiny, bench::layout_of(tiny));
  CHECK(t.a == 256 && t.b == 256 && t.c == 256);
}

const bench::Suite* builtin_suite(const char* name) {
  for (const bench::Suite& s : bench::builtin_suites())
    if (s.name == name) return &s;
  return nullptr;
}

void decode_suite_is_the_issue_grid() {
  const bench::Suite* decode = builtin_suite("decode");
  CHECK(decode != nullptr);
  if (decode == nullptr) return;
  CHECK(decode->rates);
  CHECK(decode->kind == bench::SuiteKind::kThroughput);
  CHECK(decode->shapes.size() == 6 * 4 * 2 * 2);
  std::set<std::tuple<int64_t, int64_t, int64_t, std::string, std::string>> seen;
  for (const bench::Shape& s : decode->shapes) {
    seen.insert({s.m, s.n, s.k, bench::op_name(s), bench::dtype_name(s.dtype)});
    CHECK(s.batch == 1);
    CHECK(s.ld == bench::LdMode::kMin);
  }
  CHECK(seen.size() == decode->shapes.size());
  for (int64_t n : {1, 8, 16, 32, 64, 128})
    for (auto mk :
         {std::pair<int64_t, int64_t>{4096, 4096}, {14336, 4096}, {4096, 14336}, {8192, 8192}})
      for (const char* op : {"TN", "NN"})
        for (const char* dtype : {"bf16", "fp16"})
          CHECK(seen.count({mk.first, n, mk.second, op, dtype}) == 1);
}

// The models suite: every weight once per token count, bf16 TN (PyTorch's
// Linear), with rates.
void models_suite_is_decode_through_pytorch_weights() {
  const bench::Suite* models = builtin_suite("models");
  CHECK(models != nullptr);
  if (models == nullptr) return;
  CHECK(models->rates);
  CHECK(models->shapes.size() % 3 == 0 && models->shapes.size() >= 3 * 20);
  std::set<std::tuple<int64_t, int64_t, int64_t>> seen;
  std::set<int64_t> tokens;
  for (const bench::Shape& s : models->shapes) {
    seen.insert({s.m, s.n, s.k});
    tokens.insert(s.n);
    CHECK(bench::op_name(s) == "TN" && s.dtype == bench::DType::kBF16);
    CHECK(s.batch == 1 && s.ld == bench::LdMode::kMin && !s.note.empty());
  }
  CHECK(seen.size() == models->shapes.size());
  CHECK((tokens == std::set<int64_t>{1, 4, 8}));
  for (auto mk : {std::pair<int64_t, int64_t>{6144, 4096}, {11008, 4096}, {5120, 5120}})
    CHECK(seen.count({mk.first, 1, mk.second}) == 1);
}

// The issue's held-to calls: each gpt2 call at 50257 against the same call at
// 50304, the odd suite's minimal-ld k = 4096 shapes against 4096^3 in their op
// pair; nothing else has a baseline.
void suites_carry_their_baselines() {
  int held = 0;
  for (const bench::Suite& suite : bench::builtin_suites())
    for (const bench::Shape& s : suite.shapes) {
      if (!bench::has_baseline(s)) continue;
      ++held;
      const bench::Shape b = bench::baseline_of(s);
      CHECK(b.op_a == s.op_a && b.op_b == s.op_b && b.dtype == s.dtype && b.batch == 1);
      CHECK(b.ld == bench::LdMode::kMin && !bench::has_baseline(b));
      const bench::Layout l = bench::layout_of(b);
      CHECK(l.lda % 8 == 0 && l.ldb % 8 == 0 && l.ldc % 8 == 0);  // aligned by its sizes
      if (suite.name == "gpt2") {
        const auto padded = [](int64_t v) { return v == 50257 ? int64_t{50304} : v; };
        CHECK(b.m == padded(s.m) && b.n == padded(s.n) && b.k == padded(s.k));
        CHECK(s.m == 50257 || s.n == 50257 || s.k == 50257);
      } else {
        CHECK(suite.name == "odd" && s.k == 4096 && s.ld == bench::LdMode::kMin);
        CHECK(b.m == 4096 && b.n == 4096 && b.k == 4096);
      }
    }
  CHECK(held == 3 + 2 * 2 * 4);  // gpt2's three; odd: 2 shapes x 2 dtypes x 4 op pairs
}

void shape_option_takes_a_baseline() {
  bench::Shape s;
  std::string error;
  CHECK(bench::parse_shape("4095,4097,4096,NT,bf16,vs=4096x4096x4096", &s, &error));
  CHECK(s.m == 4095 && s.n == 4097 && s.k == 4096 && bench::op_name(s) == "NT");
  CHECK(s.baseline.m == 4096 && s.baseline.n == 4096 && s.baseline.k == 4096);
  CHECK(bench::parse_shape("768,8192,50257,NN,bf16,1,VS=768X8192X50304", &s, &error));
  CHECK(s.baseline.k == 50304 && bench::has_baseline(s));
  CHECK(bench::parse_shape("64,64,64", &s, &error) && !bench::has_baseline(s));
  for (const char* bad : {"64,64,64,vs=64x64", "64,64,64,vs=64x64x0", "64,64,64,vs=axbxc",
                          "64,64,64,vs=", "64,64,64,4,vs=64x64x64"}) {
    error.clear();
    CHECK(!bench::parse_shape(bad, &s, &error));
    CHECK(!error.empty());
  }
}

}  // namespace

int main() {
  suites_carry_their_baselines();
  shape_option_takes_a_baseline();
  bytes_moved_counts_a_b_c_and_d();
  bandwidths_in_terabytes_per_second();
  operand_sets_exceed_three_l2();
  set_bytes_cover_the_padded_operands();
  decode_suite_is_the_issue_grid();
  models_suite_is_decode_through_pytorch_weights();
  if (g_failures != 0) {
    std::fprintf(stderr, "test_traffic: %d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("test_traffic: all checks passed\n");
  return 0;
}
