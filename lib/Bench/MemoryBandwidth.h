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

/// How a read pass loads: plain vector loads (the hardware prefetchers
/// alone), the same with a software prefetch a fixed distance ahead, as the
/// packed kernels' loops do, or each region as four streams read side by
/// side, as a kernel reads a tile of rows or weights beside their scales. A
/// pass of each kind is taken, and the best of all: the denominator is the
/// best read this core did in the run.
enum class ReadMethod { Plain, Prefetched, Streams };

/// The read passes of one run, in GB/s (1e9 bytes/s).
struct ReadBandwidth {
  struct Pass {
    double gbps;
    ReadMethod method;
  };
  std::vector<Pass> passes;

  /// The best pass (0 without passes): the denominator of every fraction.
  double best() const;
  double worst() const;
  double median() const;
  /// The best pass of one method (0 without one).
  double best(ReadMethod method) const;
};

/// Reads every region `passes` times per method with `threads` threads
/// (each a contiguous share of the regions; the widest vector loads the CPU
/// has, several independent accumulators so that the loop is bound by
/// memory, not by add latency), alternating the methods, and appends each
/// pass to `into`. Give it regions larger than the last-level cache: the
/// cold regime's own copies read the same pages the kernel reads.
void measureReadBandwidth(const std::vector<ReadRegion> &regions, int passes,
                          unsigned threads, ReadBandwidth &into);

/// The best of `passes` plain passes, in GB/s.
double measureReadBandwidth(const std::vector<ReadRegion> &regions, int passes,
                            unsigned threads = 1);

/// The last-level cache size in bytes (0 when unknown).
size_t lastLevelCacheBytes();

} // namespace qforge

#endif // QFORGE_BENCH_MEMORYBANDWIDTH_H
