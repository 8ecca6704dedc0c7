// SPDX-License-Identifier: MIT
// Programmatic dependent launch (PTX ISA 9.7.13.x griddepcontrol): a grid
// launched with cudaLaunchAttributeProgrammaticStreamSerialization may start
// while the previous grid on its stream is still running, and must wait for
// it before touching memory that grid may write or read.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm::ptx {

// Blocks until every prerequisite grid has completed and its memory
// operations are visible (at once when there is none). The emulated grid
// has no prerequisite grid.
BWGEMM_DEVICE void grid_dependency_wait() {
#if !defined(BWGEMM_EMU)
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the dependent grid be scheduled once every CTA of this grid has
// issued this (or exited); its own grid_dependency_wait still waits for this
// grid's completion.
BWGEMM_DEVICE void grid_dependents_launch() {
#if !defined(BWGEMM_EMU)
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

}  // namespace bwgemm::ptx
