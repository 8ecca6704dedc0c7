// SPDX-License-Identifier: MIT
// What a run leaves behind: an aligned table on stdout, printed row by row as
// shapes finish, and a CSV with one row per (shape, path, metric), flushed as
// it grows so an interrupted run keeps what it measured. bench/plot.py reads it.
#ifndef BWGEMM_BENCH_OUTPUT_H
#define BWGEMM_BENCH_OUTPUT_H

#include <cstdio>
#include <string>

#include "gpu_info.h"
#include "measure.h"
#include "real_cublas.h"
#include "suites.h"

namespace bench {

// The lines that say what the numbers were taken on and how.
void print_run_header(const GpuInfo& gpu, const RealCublas& cublas, const SmClock& clock,
                      const Options& options, const CopyBandwidth& copy);

// Prints every suite and its shapes, for --list.
void print_suite_list();

class Report {
 public:
  // copy_tbps: the measured copy bandwidth, for the d/copy column (NaN: none).
  Report(const std::string& csv_path, const GpuInfo& gpu, const Options& options,
         unsigned max_clock_mhz, double copy_tbps);
  ~Report();
  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;

  void begin_suite(const Suite& suite);
  void add(const Suite& suite, const ShapeResult& result);
  void end_suite(const Suite& suite, const SmClock& clock);

  int mismatches() const { return mismatches_; }

 private:
  void print_throughput_row(const Suite& suite, const ShapeResult& r);
  void print_host_rows(const Suite& suite, const ShapeResult& r);
  std::string copy_ratio_text(const ShapeResult& r, double us) const;
  void write_csv(const Suite& suite, const ShapeResult& r);

  std::FILE* csv_ = nullptr;
  std::string gpu_name_;
  size_t l2_bytes_;
  Options options_;
  unsigned max_clock_mhz_ = 0;
  double copy_tbps_;
  int mismatches_ = 0;
};

}  // namespace bench

#endif  // BWGEMM_BENCH_OUTPUT_H
