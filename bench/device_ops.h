// SPDX-License-Identifier: MIT
// The bench's only device code: filling operands, comparing outputs, a wait
// kernel that keeps the stream busy while the host enqueues a timed call, and
// an empty kernel that stands for a model's other kernels between its GEMMs.
#ifndef BWGEMM_BENCH_DEVICE_OPS_H
#define BWGEMM_BENCH_DEVICE_OPS_H

#include <cstddef>
#include <cstdint>

#include "common.h"

namespace bench {

// Fills n elements with iid N(0,1) values rounded to `type`: element i is a
// function of (seed, i) only, so a refill with the same seed is bitwise equal.
void fill_gaussian(void* data, size_t n, DType type, uint64_t seed, cudaStream_t stream);

// ||x - ref||_F / ||ref||_F over n elements, accumulated in double. NaN when
// either holds a NaN or an infinity, so a broken output never compares as good.
double relative_error(const void* x, const void* ref, size_t n, DType type, cudaStream_t stream);

// Occupies the stream (one thread) for `ns` nanoseconds of wall time.
void spin(cudaStream_t stream, uint64_t ns);

// An empty kernel of one block, launched without programmatic dependent
// launch, as a model's norms and activations are (the "model" rate).
void spacer(cudaStream_t stream);

}  // namespace bench

#endif  // BWGEMM_BENCH_DEVICE_OPS_H
