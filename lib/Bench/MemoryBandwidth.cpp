//===- MemoryBandwidth.cpp - the machine's read bandwidth, measured -------===//

#include "Bench/MemoryBandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace {
using Clock = std::chrono::steady_clock;

// Sums `bytes` of memory as vectors of 64-bit lanes with four independent
// accumulators. Inlined into wrappers compiled for a given vector ISA, where
// each add becomes one instruction with a memory operand.
template <typename Lanes>
__attribute__((always_inline)) inline uint64_t sumAs(const void *data,
                                                     size_t bytes) {
  const Lanes *vectors = static_cast<const Lanes *>(data);
  size_t count = bytes / sizeof(Lanes);
  Lanes a = {}, b = {}, c = {}, d = {};
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += vectors[i];
    b += vectors[i + 1];
    c += vectors[i + 2];
    d += vectors[i + 3];
  }
  for (; i < count; ++i)
    a += vectors[i];
  Lanes sum = a + b + c + d;
  uint64_t total = 0;
  for (size_t lane = 0; lane < sizeof(Lanes) / 8; ++lane)
    total += sum[lane];
  return total;
}

typedef uint64_t Lanes8 __attribute__((vector_size(64)));
typedef uint64_t Lanes4 __attribute__((vector_size(32)));
typedef uint64_t Lanes2 __attribute__((vector_size(16)));

__attribute__((target("avx512f"))) uint64_t sumAvx512(const void *data,
                                                      size_t bytes) {
  return sumAs<Lanes8>(data, bytes);
}
__attribute__((target("avx2"))) uint64_t sumAvx2(const void *data,
                                                 size_t bytes) {
  return sumAs<Lanes4>(data, bytes);
}
uint64_t sumPortable(const void *data, size_t bytes) {
  return sumAs<Lanes2>(data, bytes);
}
} // namespace

double qforge::measureReadBandwidth(const std::vector<ReadRegion> &regions,
                                    int passes, unsigned threads) {
  auto sum = __builtin_cpu_supports("avx512f") ? sumAvx512
             : __builtin_cpu_supports("avx2")  ? sumAvx2
                                               : sumPortable;
  size_t totalBytes = 0;
  for (const ReadRegion &region : regions)
    totalBytes += region.bytes;
  threads = std::max(1u, std::min<unsigned>(threads, regions.size()));
  // Thread t reads regions [t * n / threads, (t + 1) * n / threads).
  std::vector<uint64_t> checksums(threads);
  auto readShare = [&](unsigned thread) {
    size_t begin = regions.size() * thread / threads;
    size_t end = regions.size() * (thread + 1) / threads;
    uint64_t checksum = 0;
    for (size_t i = begin; i < end; ++i)
      checksum += sum(regions[i].data, regions[i].bytes);
    checksums[thread] = checksum;
  };
  double best = 0;
  volatile uint64_t sink = 0;
  for (int pass = 0; pass < passes; ++pass) {
    auto start = Clock::now();
    std::vector<std::thread> workers;
    for (unsigned thread = 1; thread < threads; ++thread)
      workers.emplace_back(readShare, thread);
    readShare(0);
    for (std::thread &worker : workers)
      worker.join();
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    for (uint64_t checksum : checksums)
      sink = sink + checksum;
    best = std::max(best, totalBytes / seconds / 1e9);
  }
  return best;
}

size_t qforge::lastLevelCacheBytes() {
  for (int index = 4; index >= 0; --index) {
    std::ifstream file("/sys/devices/system/cpu/cpu0/cache/index" +
                       std::to_string(index) + "/size");
    std::string text;
    if (!(file >> text) || text.empty())
      continue;
    size_t value = std::stoull(text);
    char unit = text.back();
    if (unit == 'K')
      value <<= 10;
    else if (unit == 'M')
      value <<= 20;
    return value;
  }
  long bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return bytes > 0 ? static_cast<size_t>(bytes) : 0;
}
