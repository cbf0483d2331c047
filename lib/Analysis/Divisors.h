//===- Divisors.h - tile sizes that divide a loop ---------------*- C++ -*-===//
//
// A tile that divides its loop leaves no partial tile, so every shape below
// the tiling stays static. Shared by transform.qforge.dividing_tile_size and
// the driver's default tiling of elementwise ops.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_ANALYSIS_DIVISORS_H
#define QFORGE_ANALYSIS_DIVISORS_H

#include <algorithm>
#include <cstdint>

namespace qforge {

/// The largest divisor of `size` (> 0) that is at most `limit` (> 0).
inline int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  int64_t divisor = std::min(size, limit);
  while (size % divisor != 0)
    --divisor;
  return divisor;
}

} // namespace qforge

#endif // QFORGE_ANALYSIS_DIVISORS_H
