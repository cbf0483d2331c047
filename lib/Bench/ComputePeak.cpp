//===- ComputePeak.cpp - the machine's arithmetic peak, measured ----------===//

#include "Bench/ComputePeak.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

// Twelve independent accumulators: more than latency (4-5 cycles) x
// throughput (2 per cycle) needs. The empty asm keeps every accumulator
// live in a register each iteration without adding an instruction.
constexpr int accumulators = 12;
constexpr long iterations = 20'000'000;

#define QFORGE_KEEP_IN_REGISTERS(a)                                            \
  __asm__ volatile(""                                                          \
                   : "+v"(a[0]), "+v"(a[1]), "+v"(a[2]), "+v"(a[3]),           \
                     "+v"(a[4]), "+v"(a[5]), "+v"(a[6]), "+v"(a[7]),           \
                     "+v"(a[8]), "+v"(a[9]), "+v"(a[10]), "+v"(a[11]))

typedef float Floats16 __attribute__((vector_size(64)));
typedef float Floats8 __attribute__((vector_size(32)));

// acc * scale + offset is one expression: contracted into one vfmadd
// (-ffp-contract=on) in the wrappers below, compiled for a vector ISA with
// FMA. A float recurrence has no closed form the compiler could use instead,
// and the sums go to a volatile, so every multiply-add stays.
volatile float sink;
template <typename Lanes>
__attribute__((always_inline)) inline double fmaLoop() {
  Lanes acc[accumulators];
  for (int i = 0; i < accumulators; ++i)
    acc[i] = Lanes{} + float(i);
  Lanes scale = Lanes{} + 0.5f, offset = Lanes{} + 0.25f;
  for (long it = 0; it < iterations; ++it)
    for (int i = 0; i < accumulators; ++i)
      acc[i] = acc[i] * scale + offset;
  for (int i = 1; i < accumulators; ++i)
    acc[0] += acc[i];
  sink = acc[0][0];
  return double(iterations) * accumulators * (sizeof(Lanes) / 4) * 2;
}

__attribute__((target("avx512f"))) double fmaLoopAvx512() {
  return fmaLoop<Floats16>();
}
__attribute__((target("avx2,fma"))) double fmaLoopAvx2() {
  return fmaLoop<Floats8>();
}

__attribute__((target("avx512f,avx512vnni"))) double dotLoopAvx512Vnni() {
  __m512i acc[accumulators];
  for (int i = 0; i < accumulators; ++i)
    acc[i] = _mm512_set1_epi32(i);
  __m512i bytes = _mm512_set1_epi32(0x01020304);
  __m512i other = _mm512_set1_epi32(0x05060708);
  for (long it = 0; it < iterations; ++it) {
    for (int i = 0; i < accumulators; ++i)
      acc[i] = _mm512_dpbusd_epi32(acc[i], bytes, other);
    QFORGE_KEEP_IN_REGISTERS(acc);
  }
  return double(iterations) * accumulators * 64 * 2;
}

// Without VNNI, the multiplies the driver emits per 32 byte products: one
// vpmaddubsw (pairs of products in 16 bits) and one vpmaddwd (pairs of
// pairs in 32 bits), added -- what the int8 strategies' rows for AVX2 take
// (|w| and the activation with w's sign, docs/numerics.md) and 4-bit
// weights take; the peak of the multiply ports. The vpabsb and vpsignb
// beside them are the kernels' own cost (on Zen 1 they share FP0, the one
// vector multiply pipe, with FP3, measured in
// docs/measurements/2026-12-07-zen1-speed-table.md); unsigned bytes of up
// to 255 would take two of each.
__attribute__((target("avx2"))) double dotLoopAvx2() {
  __m256i acc[accumulators];
  for (int i = 0; i < accumulators; ++i)
    acc[i] = _mm256_set1_epi32(0x01020304 + i);
  __m256i other = _mm256_set1_epi32(0x05060708);
  __m256i ones = _mm256_set1_epi16(1);
  // Each accumulator's bytes are its unsigned operand: twelve independent
  // chains, none of whose products the compiler could share or hoist.
  for (long it = 0; it < iterations / 4; ++it) {
    for (int i = 0; i < accumulators; ++i)
      acc[i] = _mm256_add_epi32(
          acc[i], _mm256_madd_epi16(_mm256_maddubs_epi16(acc[i], other), ones));
    QFORGE_KEEP_IN_REGISTERS(acc);
  }
  return double(iterations / 4) * accumulators * 32 * 2;
}

/// Runs `loop` (which returns its operation count) on `threads` threads at
/// once and returns operations per second / 1e9 over the slowest thread.
double runOnThreads(double (*loop)(), unsigned threads) {
  threads = std::max(1u, threads);
  std::vector<double> operations(threads);
  auto start = Clock::now();
  std::vector<std::thread> workers;
  for (unsigned thread = 1; thread < threads; ++thread)
    workers.emplace_back([&, thread] { operations[thread] = loop(); });
  operations[0] = loop();
  for (std::thread &worker : workers)
    worker.join();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  double total = 0;
  for (double count : operations)
    total += count;
  return total / seconds / 1e9;
}

/// Best of three runs: a shared machine only ever makes a run slower.
double bestOfThree(double (*loop)(), unsigned threads) {
  double best = 0;
  for (int run = 0; run < 3; ++run)
    best = std::max(best, runOnThreads(loop, threads));
  return best;
}
} // namespace

double qforge::measureFmaPeakGflops(unsigned threads) {
  if (__builtin_cpu_supports("avx512f"))
    return bestOfThree(fmaLoopAvx512, threads);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return bestOfThree(fmaLoopAvx2, threads);
  return 0;
}

double qforge::measureInt8DotPeakGops(unsigned threads) {
  if (__builtin_cpu_supports("avx512vnni"))
    return bestOfThree(dotLoopAvx512Vnni, threads);
  if (__builtin_cpu_supports("avx2"))
    return bestOfThree(dotLoopAvx2, threads);
  return 0;
}
