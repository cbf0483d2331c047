// The integer prefill's register tile alone, everything in L1, as a
// micro-kernel: TOKENS x LINES accumulators, per k step LINES weight lines
// (16 rows x 4 bytes each), TOKENS activation broadcasts and TOKENS x LINES
// vpdpbusd -- no nibble masks, no epilogue, no memory traffic. Where
// hardware counters are missing (KVM), it shows what the loop form reaches
// against the bench's int8 peak (register-only vpdpbusd chains, measured
// alike in the same run), i.e. the ceiling of an integer prefill on this
// core (docs/benchmarks.md, stop 41). Not part of the build or the tests.
//
//   /usr/lib/llvm-22/bin/clang -O2 -march=sapphirerapids -DTOKENS=9 \
//       -DLINES=2 -DSTEPS=16 scripts/micro/vnni-tile-ceiling.c -o /tmp/vt
//   /tmp/vt
//
// TOKENS x LINES  the tile: 9 x 2 is the 4-bit and 8-bit integer prefills'
//          (test/Driver/prefill-loop-mix.mlir); at most 24 accumulators.
// STEPS    k steps per call, the accumulators zeroed before and added to a
//          result after: 16 is a group of 128 4-bit weights, 32 of 8-bit.
// Prints GOP/s, the peak and their ratio, three times.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef TOKENS
#define TOKENS 9
#endif
#ifndef LINES
#define LINES 2
#endif
#ifndef STEPS
#define STEPS 16
#endif

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static unsigned char weights[STEPS * LINES * 64] __attribute__((aligned(64)));
static int activation[STEPS * TOKENS] __attribute__((aligned(64)));
static int result[TOKENS * LINES * 16] __attribute__((aligned(64)));

__attribute__((noinline)) static void tile(void) {
  __m512i acc[TOKENS][LINES];
  for (int t = 0; t < TOKENS; ++t)
    for (int l = 0; l < LINES; ++l)
      acc[t][l] = _mm512_setzero_si512();
  for (int k = 0; k < STEPS; ++k) {
    __m512i line[LINES];
    for (int l = 0; l < LINES; ++l)
      line[l] = _mm512_load_si512(weights + (k * LINES + l) * 64);
    for (int t = 0; t < TOKENS; ++t) {
      __m512i x = _mm512_set1_epi32(activation[k * TOKENS + t]);
      for (int l = 0; l < LINES; ++l)
        acc[t][l] = _mm512_dpbusd_epi32(acc[t][l], line[l], x);
    }
  }
  for (int t = 0; t < TOKENS; ++t)
    for (int l = 0; l < LINES; ++l) {
      int *out = result + (t * LINES + l) * 16;
      _mm512_store_si512(out,
                         _mm512_add_epi32(_mm512_load_si512(out), acc[t][l]));
    }
}

// 20 independent vpdpbusd chains on registers, as the bench's peak loop.
__attribute__((noinline)) static void peak(long iterations) {
  __m512i acc[20];
  for (int i = 0; i < 20; ++i)
    acc[i] = _mm512_set1_epi32(i);
  __m512i a = _mm512_set1_epi32(0x01010101), b = _mm512_set1_epi32(0x02020202);
  for (long i = 0; i < iterations; ++i) {
    for (int j = 0; j < 20; ++j)
      acc[j] = _mm512_dpbusd_epi32(acc[j], a, b);
    __asm__ volatile("" : "+v"(a));
  }
  for (int i = 0; i < 20; ++i)
    _mm512_storeu_si512(result,
                        _mm512_add_epi32(_mm512_loadu_si512(result), acc[i]));
}

int main(void) {
  for (int i = 0; i < STEPS * LINES * 64; ++i)
    weights[i] = (unsigned char)i;
  for (int i = 0; i < STEPS * TOKENS; ++i)
    activation[i] = i * 77;
  const double opsPerDot = 64 * 2; // 16 lanes x 4 byte products, 2 ops each
  for (int round = 0; round < 3; ++round) {
    long calls = 20000000L * 8 / (STEPS * TOKENS * LINES);
    double start = seconds();
    for (long i = 0; i < calls; ++i)
      tile();
    double tileGops = calls * (double)STEPS * TOKENS * LINES * opsPerDot /
                      (seconds() - start) / 1e9;
    long iterations = 20000000L;
    start = seconds();
    peak(iterations);
    double peakGops = iterations * 20.0 * opsPerDot / (seconds() - start) / 1e9;
    printf("%d x %d, %d steps: %.1f GOP/s, peak %.1f, %.3f of the peak\n",
           TOKENS, LINES, STEPS, tileGops, peakGops, tileGops / peakGops);
  }
  return 0;
}
