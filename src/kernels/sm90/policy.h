// SPDX-License-Identifier: MIT
// Which sm90 configuration runs a problem under BWGEMM_POLICY_AUTO, or cuBLAS:
// one table of shape classes (policy.cpp keeps it, with the measurements or
// arguments behind each row).
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::sm90 {

struct Selection {
  int config;        // an index into config.h's kShapes; -1: cuBLAS
  const char* rule;  // the table row that decided, for the decision log
};

Selection select_config(const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm::sm90
