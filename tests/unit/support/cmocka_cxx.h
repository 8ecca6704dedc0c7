// SPDX-License-Identifier: MIT
// CMocka for the C++ test files: its header needs these includes first and
// declares its functions without extern "C".
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

extern "C" {
#include <cmocka.h>
}
