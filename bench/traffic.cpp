// SPDX-License-Identifier: MIT
#include "traffic.h"

#include <algorithm>
#include <limits>

namespace bench {

double bytes_moved(const Shape& s, bool reads_c) {
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n),
               k = static_cast<double>(s.k);
  const double elements = m * k + k * n + (reads_c ? 2.0 : 1.0) * m * n;
  return elements * static_cast<double>(s.batch) * static_cast<double>(kElementBytes);
}

SetBytes set_bytes(const Shape& s, const Layout& l) {
  constexpr size_t kAlignment = 256;
  const auto bytes = [&](int64_t elements) {
    const size_t v = static_cast<size_t>(elements) * static_cast<size_t>(s.batch) * kElementBytes;
    return (v + kAlignment - 1) / kAlignment * kAlignment;
  };
  return {bytes(l.a_elems), bytes(l.b_elems), bytes(l.c_elems)};
}

double terabytes_per_second(double bytes, double us) {
  if (!(us > 0)) return std::numeric_limits<double>::quiet_NaN();
  return bytes / us * 1e-6;
}

double copy_terabytes_per_second(size_t bytes, double us) {
  return terabytes_per_second(2.0 * static_cast<double>(bytes), us);
}

int operand_sets(size_t set_bytes, size_t l2_bytes) {
  if (set_bytes == 0) return kMaxSets;
  const size_t wanted = (kFootprintPerL2 * l2_bytes + set_bytes - 1) / set_bytes;
  return static_cast<int>(std::clamp<size_t>(wanted, 1, kMaxSets));
}

}  // namespace bench
