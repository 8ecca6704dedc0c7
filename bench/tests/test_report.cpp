// SPDX-License-Identifier: MIT
// The CSV the report writes, from made-up results: as many fields in every row
// as in the header, and the bandwidth, copy, bare-launch and baseline columns
// computed from the times as bench/README.md says.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "measure.h"
#include "output.h"
#include "traffic.h"

namespace {

int g_failures = 0;

void check(bool ok, const char* what, int line) {
  if (ok) return;
  std::fprintf(stderr, "test_report:%d: FAIL: %s\n", line, what);
  ++g_failures;
}
#define CHECK(cond) check((cond), #cond, __LINE__)

bool near(double a, double b) { return std::fabs(a - b) <= 1e-3 * std::fabs(b) + 1e-9; }

// RFC 4180 fields of one line.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

bench::Stats us(double median) { return {median, median, median, 30}; }
constexpr bench::Stats kNone = {NAN, NAN, NAN, 0};

bench::PathResult path(bench::Path p, const std::string& ran) {
  bench::PathResult r;
  r.path = p;
  r.device = r.eager = r.graph = r.model = r.host = r.host_over_cublas = r.host_over_bare = kNone;
  r.ran = {ran};
  r.rel_err = p == bench::Path::kCublas ? NAN : 1e-4;
  r.mismatch = false;
  return r;
}

const bench::Suite& suite(const char* name) {
  for (const bench::Suite& s : bench::builtin_suites())
    if (s.name == name) return s;
  std::fprintf(stderr, "test_report: no suite %s\n", name);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: test_report CSV\n");
    return 2;
  }
  const double copy_tbps = 4.0;
  const bench::Suite& decode = suite("decode");
  const bench::Suite& host = suite("host");
  const bench::Suite& gpt2 = suite("gpt2");
  const bench::Shape& logits = gpt2.shapes.front();  // vocabulary 50257, held to 50304
  const double gpt2_us[] = {100, 30, 32, 25};        // cublas, dispatch, kernel, baseline
  {
    bench::GpuInfo gpu;
    gpu.name = "Test, GPU";  // quoted in the CSV
    gpu.l2_bytes = size_t{50} << 20;
    bench::Report report(argv[1], gpu, bench::Options{}, 1980, copy_tbps);

    bench::ShapeResult t;
    t.shape = decode.shapes.front();
    t.layout = bench::layout_of(t.shape);
    t.bytes = bench::bytes_moved(t.shape, false);
    t.sets = 5;
    t.rates = true;
    const double device[] = {20, 10, 40}, graph[] = {18, 9, 36}, eager[] = {25, 12, 41},
                 model[] = {20, 16, 30};
    for (int i = 0; i < 3; ++i) {
      bench::PathResult p = path(bench::kThroughputPaths[i], i == 0 ? "cublas" : "sm90:x");
      p.device = us(device[i]);
      p.graph = us(graph[i]);
      p.eager = us(eager[i]);
      p.model = us(model[i]);
      t.paths.push_back(p);
    }
    report.begin_suite(decode);
    report.add(decode, t);

    bench::ShapeResult h;
    h.shape = host.shapes.front();
    h.layout = bench::layout_of(h.shape);
    h.bytes = bench::bytes_moved(h.shape, false);
    // The differences are the batch-by-batch ones (paired_differences), not
    // those of the medians.
    const double host_us[] = {6.5, 6.8, 3.9, 3.4};
    const double over_cublas[] = {0.0, 0.21, -2.7, -3.2}, over_bare[] = {3.0, 3.3, 0.45, 0.0};
    int i = 0;
    for (bench::Path p : bench::kHostPaths) {
      bench::PathResult r = path(p, "sm90:x");
      r.host = us(host_us[i]);
      r.host_over_cublas = us(over_cublas[i]);
      r.host_over_bare = us(over_bare[i]);
      ++i;
      h.paths.push_back(r);
    }
    report.begin_suite(host);
    report.add(host, h);

    bench::ShapeResult g;
    g.shape = logits;
    g.layout = bench::layout_of(g.shape);
    g.bytes = bench::bytes_moved(g.shape, false);
    const bench::Path gpt2_paths[] = {bench::Path::kCublas, bench::Path::kDispatch,
                                      bench::Path::kKernel, bench::Path::kBaseline};
    for (int p = 0; p < 4; ++p) {
      bench::PathResult r = path(gpt2_paths[p], "x");
      r.device = us(gpt2_us[p]);
      if (gpt2_paths[p] == bench::Path::kBaseline) r.rel_err = NAN;  // never checked
      g.paths.push_back(r);
    }
    g.sm_clock_mhz = 1700;         // after the rounds of dispatch, kernel and baseline
    g.cublas_sm_clock_mhz = 1980;  // after cuBLAS's own
    report.begin_suite(gpt2);
    report.add(gpt2, g);
    CHECK(report.mismatches() == 0);
  }

  std::ifstream in(argv[1]);
  std::string line;
  CHECK(static_cast<bool>(std::getline(in, line)));
  const std::vector<std::string> header = fields(line);
  std::map<std::string, size_t> col;
  for (size_t c = 0; c < header.size(); ++c) col[header[c]] = c;
  for (const char* name :
       {"path", "metric", "median_us", "tbps", "bw_vs_copy", "copy_tbps", "bytes", "added_us",
        "vs_bare_us", "ratio_vs_cublas", "gpu", "sets", "vs_baseline", "tflops"})
    CHECK(col.count(name) == 1);

  const double bytes = bench::bytes_moved(decode.shapes.front(), false);
  int rows = 0;
  std::map<std::string, std::vector<std::string>> by_key;  // "path/metric"
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields(line);
    CHECK(f.size() == header.size());
    if (f.size() != header.size()) continue;
    ++rows;
    CHECK(f[col["gpu"]] == "Test, GPU");
    by_key[f[col["suite"]] + "/" + f[col["path"]] + "/" + f[col["metric"]]] = f;
  }
  CHECK(rows == 3 * 4 + 4 + 4);  // decode: 3 paths x 4 metrics; host: 4 paths; gpt2: 4 paths

  auto number = [&](const char* key, const char* column) {
    const auto it = by_key.find(key);
    if (it == by_key.end()) return std::nan("");
    const std::string& v = it->second[col[column]];
    return v.empty() ? std::nan("") : std::stod(v);
  };
  CHECK(near(number("decode/dispatch/device", "tbps"), bytes / 10.0 * 1e-6));
  CHECK(near(number("decode/dispatch/device", "bw_vs_copy"), bytes / 10.0 * 1e-6 / copy_tbps));
  CHECK(near(number("decode/kernel/graph", "tbps"), bytes / 36.0 * 1e-6));
  CHECK(near(number("decode/dispatch/graph", "ratio_vs_cublas"), 2.0));
  CHECK(near(number("decode/cublas/eager", "copy_tbps"), copy_tbps));
  CHECK(near(number("decode/dispatch/model", "ratio_vs_cublas"), 1.25));
  CHECK(near(number("decode/kernel/model", "median_us"), 30));
  CHECK(near(number("decode/cublas/device", "bytes"), bytes));
  CHECK(near(number("decode/cublas/device", "sets"), 5));
  CHECK(std::isnan(number("decode/kernel/device", "vs_bare_us")));
  CHECK(near(number("host/kernel/host", "added_us"), -2.7));
  CHECK(near(number("host/kernel/host", "vs_bare_us"), 0.45));
  CHECK(near(number("host/forward/host", "added_us"), 0.21));
  CHECK(near(number("host/bare/host", "median_us"), 3.4));
  // Paired differences: the median of a - b sample by sample, which a drift
  // common to both sides leaves alone (the medians' difference would not).
  const bench::Stats d =
      bench::paired_differences({7.0, 9.0, 6.6, 11.0, 6.9}, {6.8, 8.7, 6.5, 10.9, 6.4});
  CHECK(near(d.median_us, 0.2) && near(d.min_us, 0.1) && d.samples == 5);
  CHECK(bench::paired_differences({}, {}).samples == 0);
  CHECK(std::isnan(number("host/bare/host", "tbps")));
  // The baseline ran another call: its own flops and bytes, and ratios of
  // throughputs, not of times.
  const bench::Shape padded = bench::baseline_of(logits);
  CHECK(padded.m == 50304 && padded.n == logits.n && padded.k == logits.k &&
        padded.op_a == logits.op_a && padded.op_b == logits.op_b && padded.dtype == logits.dtype);
  CHECK(!bench::has_baseline(padded));
  const double odd_flops = bench::flop_count(logits), padded_flops = bench::flop_count(padded);
  CHECK(near(number("gpt2/baseline/device", "tflops"), padded_flops / 25.0 * 1e-6));
  CHECK(near(number("gpt2/baseline/device", "bytes"), bench::bytes_moved(padded, false)));
  CHECK(near(number("gpt2/baseline/device", "ratio_vs_cublas"),
             (padded_flops / 25.0) / (odd_flops / 100.0)));
  CHECK(near(number("gpt2/dispatch/device", "vs_baseline"),
             (odd_flops / 30.0) / (padded_flops / 25.0)));
  CHECK(near(number("gpt2/kernel/device", "ratio_vs_cublas"), 100.0 / 32.0));
  CHECK(near(number("gpt2/baseline/device", "vs_baseline"), 1.0));
  CHECK(std::isnan(number("decode/dispatch/device", "vs_baseline")));
  // Each path's clock is the one read after its own rounds; the baseline,
  // never compared with anything, has no check result.
  CHECK(near(number("gpt2/cublas/device", "sm_clock_mhz"), 1980));
  CHECK(near(number("gpt2/dispatch/device", "sm_clock_mhz"), 1700));
  CHECK(near(number("gpt2/baseline/device", "sm_clock_mhz"), 1700));
  CHECK(near(number("decode/cublas/device", "sm_clock_mhz"), 0));
  CHECK(by_key["gpt2/baseline/device"][col["mismatch"]].empty());
  CHECK(by_key["gpt2/baseline/device"][col["rel_err"]].empty());
  CHECK(by_key["gpt2/dispatch/device"][col["mismatch"]] == "0");

  if (g_failures != 0) {
    std::fprintf(stderr, "test_report: %d check(s) failed\n", g_failures);
    return 1;
  }
  std::printf("test_report: all checks passed\n");
  return 0;
}
