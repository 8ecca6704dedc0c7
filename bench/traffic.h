// SPDX-License-Identifier: MIT
// The memory side of a measurement, as plain arithmetic (unit-tested on the
// CPU): the bytes a GEMM has to move, the effective bandwidth of a timed call,
// and how many operand sets a rotation of calls needs so that no call finds
// its operands in the L2.
#ifndef BWGEMM_BENCH_TRAFFIC_H
#define BWGEMM_BENCH_TRAFFIC_H

#include <cstddef>

#include "suites.h"

namespace bench {

// The least a GEMM can move: A and B read once, C read when beta != 0, D
// (written over C) written once; m x k, k x n and m x n elements per batch,
// so padding between the rows and the leading dimension is not counted.
double bytes_moved(const Shape& s, bool reads_c);

// Effective bandwidth in TB/s (10^12 bytes per second) of `bytes` in `us`
// microseconds; NaN when `us` is not a positive time.
double terabytes_per_second(double bytes, double us);

// A device-to-device copy of `bytes` reads and writes every byte once, so it
// moves 2 x bytes in its time.
double copy_terabytes_per_second(size_t bytes, double us);

// One operand set's storage: A, B and C over every batch, padding rows
// included, each rounded up to 256 bytes (where the next one starts).
struct SetBytes {
  size_t a, b, c;
  size_t total() const { return a + b + c; }
};
SetBytes set_bytes(const Shape& s, const Layout& l);

// Rotating through operand sets that add up to kFootprintPerL2 times the L2
// means each set has been evicted by the time it comes round again; tiny
// shapes stop at kMaxSets.
constexpr size_t kFootprintPerL2 = 3;
constexpr int kMaxSets = 512;

// How many sets of `set_bytes` each make kFootprintPerL2 x `l2_bytes`, within
// [1, kMaxSets].
int operand_sets(size_t set_bytes, size_t l2_bytes);

}  // namespace bench

#endif  // BWGEMM_BENCH_TRAFFIC_H
