//===- MemoryBandwidth.h - the read bandwidth -------------------*- C++ -*-===//
#ifndef QFORGE_BENCH_MEMORYBANDWIDTH_H
#define QFORGE_BENCH_MEMORYBANDWIDTH_H

#include <cstddef>
#include <vector>

namespace qforge {

/// A span of memory the kernel reads.
struct ReadRegion {
  const void *data;
  size_t bytes;
};

/// Reads every region once per pass with `threads` threads (each a
/// contiguous share of the regions; the widest vector loads the CPU has,
/// several independent accumulators so that the loop is bound by memory,
/// not by add latency) and returns the best pass in GB/s (1e9 bytes/s).
/// Give it regions larger than the last-level cache.
double measureReadBandwidth(const std::vector<ReadRegion> &regions, int passes,
                            unsigned threads = 1);

/// The last-level cache size in bytes (0 when unknown).
size_t lastLevelCacheBytes();

} // namespace qforge

#endif // QFORGE_BENCH_MEMORYBANDWIDTH_H
