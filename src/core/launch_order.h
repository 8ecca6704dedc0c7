// SPDX-License-Identifier: MIT
// Which of this library's grids start as programmatic dependents of the grid
// before them on their stream.
//
// The sm90 and decode kernels release their dependents as soon as their own
// wait for the previous grid is over (griddepcontrol.launch_dependents), so
// a grid launched as a programmatic dependent right behind one of them
// starts while that grid ends. Behind a kernel that does not (a model's
// norms and activations, this library's operand copies; cuBLAS's are taken
// as such) it cannot, and the programmatic launch costs time instead (up to
// 0.6 us a call on an H200, docs/perf.md v35). The host sees only the grids
// its own thread enqueues through this library, so a grid is taken to follow
// the last of them directly where the two read the same cuBLAS B. In the
// calls frameworks make, B is the activation or the output gradient, never
// the weight: a model's q, k and v projections read one activation, a
// layer's input and weight gradients the same output gradient, while a
// weight read again behind the caller's own kernels (a loop over one layer)
// does not count. Each thread keeps its own record.
#pragma once

#include <cuda_runtime_api.h>

namespace bwgemm {

// A grid's stream and the cuBLAS B it reads.
struct GridInputs {
  cudaStream_t stream;
  const void* b;
};

// Whether a grid reading `g` directly follows this thread's last grid, where
// that grid releases its dependents early: the same stream and the same B.
bool follows_releasing_grid(const GridInputs& g);

// Records the grid this thread has just enqueued: one that releases its
// dependents early, or any other (the next grid follows none).
void record_releasing_grid(const GridInputs& g);
void record_other_grid();

}  // namespace bwgemm
