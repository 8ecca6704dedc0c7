// SPDX-License-Identifier: MIT
// bwgemm-bench --tune: measures each kernel configuration against cuBLAS on
// this GPU and writes the policy file libbwgemm reads from
// BWGEMM_POLICY_FILE (src/core/tuned_policy_file.h). Each configuration runs
// in a child process of the bench with BWGEMM_SM90_CONFIG (on Blackwell
// BWGEMM_SM100_CONFIG) naming it, so the library's own selection forces it;
// each process times cuBLAS too, on the same buffers, and a configuration's
// speed-up is over cuBLAS's best time.
#ifndef BWGEMM_BENCH_TUNE_H
#define BWGEMM_BENCH_TUNE_H

#include <string>

#include "measure.h"

namespace bench {

// The shapes measured: "full" (decode from four weight sizes at 1, 16 and 64
// tokens, and small or skinny shapes; fp16 and bf16, TN and NN) or "quick"
// (two bf16 TN shapes, for tests).
bool tune_grid_known(const std::string& grid);

// The parent: runs a child per configuration, prints what each measured and
// writes the policy to `out_path`. `self`: this executable's path.
int run_tune(const std::string& self, const std::string& grid, const std::string& out_path,
             const Options& options);

// The child: times the grid's shapes on the paths of the throughput suites
// and writes one line per shape to `result_path`.
int run_tune_child(const std::string& grid, const std::string& result_path, const Options& options);

}  // namespace bench

#endif  // BWGEMM_BENCH_TUNE_H
