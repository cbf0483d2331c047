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

// Bytes ahead of the loads at which the prefetched method asks for a line:
// 16 lines, about what the packed kernels' rows put between a prefetch and
// its use.
constexpr size_t kPrefetchDistance = 1024;

// Sums `bytes` of memory as vectors of 64-bit lanes with four independent
// accumulators. Inlined into wrappers compiled for a given vector ISA, where
// each add becomes one instruction with a memory operand; `Prefetch` adds a
// prefetch into L1 per cache line, kPrefetchDistance ahead.
template <typename Lanes, bool Prefetch>
__attribute__((always_inline)) inline uint64_t sumAs(const void *data,
                                                     size_t bytes) {
  const Lanes *vectors = static_cast<const Lanes *>(data);
  const char *end = static_cast<const char *>(data) + bytes;
  size_t count = bytes / sizeof(Lanes);
  Lanes a = {}, b = {}, c = {}, d = {};
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    if constexpr (Prefetch) {
      // Four vectors are 64 (SSE) to 256 (AVX-512) bytes: one prefetch
      // per line they cover, none past the region.
      const char *ahead =
          reinterpret_cast<const char *>(vectors + i) + kPrefetchDistance;
      for (size_t line = 0; line < 4 * sizeof(Lanes); line += 64)
        if (ahead + line < end)
          __builtin_prefetch(ahead + line, 0, 3);
    }
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

// Sums `bytes` as kStreams equal parts read side by side: each step loads
// one vector of every part, one accumulator per part. A kernel's loop over a
// tile of rows or over its weights and their scales reads several streams
// at once, and a core's prefetchers and open DRAM pages serve several
// streams faster than one (AMD EPYC 7001, Zen 1: 15.1 GB/s with four
// streams against 12.2 with one, docs/benchmarks.md).
constexpr size_t kStreams = 4;
template <typename Lanes>
__attribute__((always_inline)) inline uint64_t sumStreamsAs(const void *data,
                                                            size_t bytes) {
  const char *base = static_cast<const char *>(data);
  size_t perStream = bytes / kStreams / sizeof(Lanes);
  const Lanes *streams[kStreams];
  for (size_t s = 0; s < kStreams; ++s)
    streams[s] = reinterpret_cast<const Lanes *>(base) + s * perStream;
  Lanes sums[kStreams] = {};
  for (size_t i = 0; i < perStream; ++i)
    for (size_t s = 0; s < kStreams; ++s)
      sums[s] += streams[s][i];
  // What the parts leave (less than kStreams vectors, and a partial one)
  // is read as the plain method does.
  size_t done = kStreams * perStream * sizeof(Lanes);
  Lanes sum = {};
  for (size_t s = 0; s < kStreams; ++s)
    sum += sums[s];
  uint64_t total = sumAs<Lanes, false>(base + done, bytes - done);
  for (size_t lane = 0; lane < sizeof(Lanes) / 8; ++lane)
    total += sum[lane];
  return total;
}

typedef uint64_t Lanes8 __attribute__((vector_size(64)));
typedef uint64_t Lanes4 __attribute__((vector_size(32)));
typedef uint64_t Lanes2 __attribute__((vector_size(16)));

template <bool Prefetch>
__attribute__((target("avx512f"))) uint64_t sumAvx512(const void *data,
                                                      size_t bytes) {
  return sumAs<Lanes8, Prefetch>(data, bytes);
}
template <bool Prefetch>
__attribute__((target("avx2"))) uint64_t sumAvx2(const void *data,
                                                 size_t bytes) {
  return sumAs<Lanes4, Prefetch>(data, bytes);
}
template <bool Prefetch> uint64_t sumPortable(const void *data, size_t bytes) {
  return sumAs<Lanes2, Prefetch>(data, bytes);
}
__attribute__((target("avx512f"))) uint64_t sumStreamsAvx512(const void *data,
                                                             size_t bytes) {
  return sumStreamsAs<Lanes8>(data, bytes);
}
__attribute__((target("avx2"))) uint64_t sumStreamsAvx2(const void *data,
                                                        size_t bytes) {
  return sumStreamsAs<Lanes4>(data, bytes);
}
uint64_t sumStreamsPortable(const void *data, size_t bytes) {
  return sumStreamsAs<Lanes2>(data, bytes);
}

using SumFunction = uint64_t (*)(const void *, size_t);

template <bool Prefetch> SumFunction pickSum() {
  return __builtin_cpu_supports("avx512f") ? sumAvx512<Prefetch>
         : __builtin_cpu_supports("avx2")  ? sumAvx2<Prefetch>
                                           : sumPortable<Prefetch>;
}

SumFunction pickStreamsSum() {
  return __builtin_cpu_supports("avx512f") ? sumStreamsAvx512
         : __builtin_cpu_supports("avx2")  ? sumStreamsAvx2
                                           : sumStreamsPortable;
}

/// One pass of `sum` over `regions` on `threads` threads, in GB/s.
double readPass(const std::vector<qforge::ReadRegion> &regions,
                unsigned threads, SumFunction sum) {
  size_t totalBytes = 0;
  for (const qforge::ReadRegion &region : regions)
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
  auto start = Clock::now();
  std::vector<std::thread> workers;
  for (unsigned thread = 1; thread < threads; ++thread)
    workers.emplace_back(readShare, thread);
  readShare(0);
  for (std::thread &worker : workers)
    worker.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // Keeps the sums (and so the loads) alive.
  static volatile uint64_t sink = 0;
  for (uint64_t checksum : checksums)
    sink = sink + checksum;
  return totalBytes / seconds / 1e9;
}
} // namespace

double qforge::ReadBandwidth::best() const {
  double result = 0;
  for (const Pass &pass : passes)
    result = std::max(result, pass.gbps);
  return result;
}

double qforge::ReadBandwidth::best(ReadMethod method) const {
  double result = 0;
  for (const Pass &pass : passes)
    if (pass.method == method)
      result = std::max(result, pass.gbps);
  return result;
}

double qforge::ReadBandwidth::worst() const {
  if (passes.empty())
    return 0;
  double result = passes.front().gbps;
  for (const Pass &pass : passes)
    result = std::min(result, pass.gbps);
  return result;
}

double qforge::ReadBandwidth::median() const {
  if (passes.empty())
    return 0;
  std::vector<double> values;
  for (const Pass &pass : passes)
    values.push_back(pass.gbps);
  std::sort(values.begin(), values.end());
  size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle]
                           : (values[middle - 1] + values[middle]) / 2;
}

void qforge::measureReadBandwidth(const std::vector<ReadRegion> &regions,
                                  int passes, unsigned threads,
                                  ReadBandwidth &into) {
  SumFunction plain = pickSum<false>(), prefetched = pickSum<true>(),
              streams = pickStreamsSum();
  for (int pass = 0; pass < passes; ++pass) {
    into.passes.push_back(
        {readPass(regions, threads, plain), ReadMethod::Plain});
    into.passes.push_back(
        {readPass(regions, threads, prefetched), ReadMethod::Prefetched});
    into.passes.push_back(
        {readPass(regions, threads, streams), ReadMethod::Streams});
  }
}

double qforge::measureReadBandwidth(const std::vector<ReadRegion> &regions,
                                    int passes, unsigned threads) {
  SumFunction plain = pickSum<false>();
  double best = 0;
  for (int pass = 0; pass < passes; ++pass)
    best = std::max(best, readPass(regions, threads, plain));
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
