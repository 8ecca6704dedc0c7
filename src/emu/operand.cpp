// SPDX-License-Identifier: MIT
// Canonical shared-memory layouts of 16-bit MMA operands (PTX ISA 9.7.15.5.1
// "Shared memory matrix layout" and 9.7.16.3 for tcgen05, which uses the same
// layouts). With T = 8 elements (16 bytes), in CUTLASS's notation
// (mma_sm90_desc.hpp), strides in elements:
//   K-major,  no swizzle : ((8,m),(T,2)) : ((T,SBO),(1,LBO))
//   K-major,  swizzle S  : ((8,m),(T,2)) : ((S/2,SBO),(1,T))   LBO unused
//   MN-major, no swizzle : ((T,1,m),(8,k)) : ((1,T,SBO),(T,LBO))
//   MN-major, swizzle S  : ((T,S/16,m),(8,k)) : ((1,T,LBO),(S/2,SBO))
// and the swizzle applied to the resulting shared-window address
// (swizzle_address). K is 16 per instruction, so a K-major swizzled row of S
// >= 32 bytes always holds it.
#include "emu/operand.h"

#include <cstring>
#include <vector>

#include "emu/machine.h"
#include "emu/report.h"
#include "emu/tensor_map.h"

namespace bwgemm::emu {
namespace {

const std::vector<float>& half_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(65536);
    for (uint32_t h = 0; h < 65536; ++h) {
      const uint32_t sign = (h >> 15) << 31, exp = (h >> 10) & 31, mant = h & 1023;
      uint32_t bits;
      if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
      } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
      } else if (mant == 0) {
        bits = sign;
      } else {  // subnormal: normalise
        int e = 113;
        uint32_t m = mant;
        while ((m & 1024) == 0) {
          m <<= 1;
          --e;
        }
        bits = sign | (uint32_t(e) << 23) | ((m & 1023) << 13);
      }
      std::memcpy(&t[h], &bits, 4);
    }
    return t;
  }();
  return table;
}

uint32_t log2_of(uint32_t span) { return span == 32 ? 5 : span == 64 ? 6 : 7; }

}  // namespace

float element_to_float(uint16_t bits, bool bf16) {
  if (!bf16) return half_table()[bits];
  const uint32_t wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

Operand load_operand(const Cta& cta, const SmemMatrix& m, int rows, bool bf16, const char* who) {
  if (m.span != 0 && ((m.start >> log2_of(m.span)) & 7) != 0) {
    violation("PTX ISA 9.7.15.5.1.2.2 matrix descriptor (base offset)",
              format("%s: descriptor start 0x%x is not in the first row of a %u-byte swizzle "
                     "pattern, but the base offset is 0",
                     who, m.start, m.span));
  }
  const uint32_t lo = kReservedSmem, hi = cta.window_bytes;
  Operand out;
  out.values.resize(size_t(rows) * 16);
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < 16; ++k) {
      uint32_t a;
      if (!m.mn_major) {
        a = m.span == 0 ? m.start + (r / 8) * m.sbo + (r % 8) * 16 + (k / 8) * m.lbo + (k % 8) * 2
                        : m.start + (r / 8) * m.sbo + (r % 8) * m.span + k * 2;
      } else {
        const int per_row = m.span == 0 ? 8 : int(m.span / 2);
        a = m.span == 0 ? m.start + (r / 8) * m.sbo + (k / 8) * m.lbo + (k % 8) * 16 + (r % 8) * 2
                        : m.start + (r / per_row) * m.lbo + (k / 8) * m.sbo + (k % 8) * m.span +
                              (r % per_row) * 2;
      }
      a = swizzle_address(a, m.span);
      if (a < lo || a + 2 > hi) {
        violation("PTX ISA 9.7.15.5.1 shared memory matrix layout",
                  format("%s: element (%d, k %d) at shared address 0x%x is outside the CTA's "
                         "dynamic shared memory [0x%x, 0x%x)",
                         who, r, k, a, lo, hi));
      }
      uint16_t v;
      std::memcpy(&v, cta.window + a, 2);
      out.values[size_t(r) * 16 + k] = element_to_float(v, bf16);
      out.range.add(a, 2);
    }
  }
  return out;
}

void check_unchanged(const Operand& issued, const Operand& now, const char* who) {
  if (std::memcmp(issued.values.data(), now.values.data(), issued.values.size() * 4) == 0) return;
  const char* const rule = "PTX ISA wgmma.wait_group / 9.7.16.6 tcgen05 asynchronous operations";
  if (now.range.lo > now.range.hi) {
    violation(rule, format("%s: a thread's A registers changed between the issue and the "
                           "completion of the MMA (written before a wgmma.wait_group covered it)",
                           who));
  } else {
    violation(rule,
              format("%s: its shared-memory operand in [0x%x, 0x%x) changed between the issue "
                     "and the completion of the MMA (a stage released or overwritten before "
                     "the MMA was waited for)",
                     who, now.range.lo, now.range.hi));
  }
}

}  // namespace bwgemm::emu
