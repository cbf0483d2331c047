//===- MemoryBandwidth.cpp - the machine's read bandwidth, measured -------===//

#include "Bench/MemoryBandwidth.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {
using Clock = std::chrono::steady_clock;

// 64-byte vectors of 64-bit lanes; with the target attribute each add is one
// AVX-512 instruction with a memory operand.
typedef uint64_t Lanes8 __attribute__((vector_size(64)));
typedef uint64_t Lanes4 __attribute__((vector_size(32)));

__attribute__((target("avx512f"))) uint64_t sumAvx512(const void *data,
                                                      size_t bytes) {
  const Lanes8 *vectors = static_cast<const Lanes8 *>(data);
  size_t count = bytes / sizeof(Lanes8);
  Lanes8 a = {}, b = {}, c = {}, d = {};
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += vectors[i];
    b += vectors[i + 1];
    c += vectors[i + 2];
    d += vectors[i + 3];
  }
  for (; i < count; ++i)
    a += vectors[i];
  Lanes8 sum = a + b + c + d;
  uint64_t total = 0;
  for (int lane = 0; lane < 8; ++lane)
    total += sum[lane];
  return total;
}

__attribute__((target("avx2"))) uint64_t sumAvx2(const void *data,
                                                 size_t bytes) {
  const Lanes4 *vectors = static_cast<const Lanes4 *>(data);
  size_t count = bytes / sizeof(Lanes4);
  Lanes4 a = {}, b = {}, c = {}, d = {};
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += vectors[i];
    b += vectors[i + 1];
    c += vectors[i + 2];
    d += vectors[i + 3];
  }
  for (; i < count; ++i)
    a += vectors[i];
  Lanes4 sum = a + b + c + d;
  return sum[0] + sum[1] + sum[2] + sum[3];
}

uint64_t sumPortable(const void *data, size_t bytes) {
  const uint64_t *words = static_cast<const uint64_t *>(data);
  size_t count = bytes / 8;
  uint64_t a = 0, b = 0, c = 0, d = 0;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    a += words[i];
    b += words[i + 1];
    c += words[i + 2];
    d += words[i + 3];
  }
  for (; i < count; ++i)
    a += words[i];
  return a + b + c + d;
}
} // namespace

double qforge::measureReadBandwidth(const std::vector<ReadRegion> &regions,
                                    int passes) {
  auto sum = __builtin_cpu_supports("avx512f") ? sumAvx512
             : __builtin_cpu_supports("avx2")  ? sumAvx2
                                               : sumPortable;
  size_t totalBytes = 0;
  for (const ReadRegion &region : regions)
    totalBytes += region.bytes;
  double best = 0;
  volatile uint64_t sink = 0;
  for (int pass = 0; pass < passes; ++pass) {
    auto start = Clock::now();
    uint64_t checksum = 0;
    for (const ReadRegion &region : regions)
      checksum += sum(region.data, region.bytes);
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
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
