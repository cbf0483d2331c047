// The integer prefill's k loop alone, as a micro-kernel: where hardware
// counters are missing (KVM), it separates the loop's own speed from the
// memory system's and from the group epilogue's (docs/benchmarks.md, stop
// 34). Not part of the build or the tests.
//
// Per (group of 128, block of 8 tokens): 32 k steps, each 2 weight lines of
// 16 rows x 4 bytes, 8 token broadcasts and 16 vpdpbusd -- the loop the
// int8 prefill strategies emit (test/Driver/prefill-loop-mix.mlir) -- over
// the kernel's memory layout: row tiles of 32 rows (4 KiB per group), the
// packed activation of 16 blocks x 32 groups x 1 KiB read again for every
// row tile. No epilogue, no result.
//
//   /usr/lib/llvm-22/bin/clang -O2 -march=sapphirerapids \
//       scripts/micro/prefill-kloop.c -o /tmp/prefill-kloop
//   /tmp/prefill-kloop TILES LAYOUT PREFETCH AHEAD
//
// TILES    row tiles (N / 32): 128 streams 16 MiB of weights, 8 keeps them
//          in L2.
// LAYOUT   0: activation [block][group] (the kernel's), 1: [group][block].
// PREFETCH 0: none; 1: the next group's lines AHEAD bytes ahead into L2 in
//          every block (the kernel's); 2: the same into L1; 3: into L2 in
//          block 0 only.
// Prints GOP/s per repetition; compare the best of interleaved runs.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kBlocks = 16, kGroups = 32, kSteps = 32, kTileGroupBytes = 4096 };

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void groupBlock(const int8_t *weights, const int32_t *activation,
                       __m512i *accumulators, int prefetch, long ahead,
                       int block) {
  __m512i acc[16];
  for (int i = 0; i < 16; ++i)
    acc[i] = _mm512_setzero_si512();
  for (int step = 0; step < kSteps; ++step) {
    const char *next = (const char *)weights + ahead;
    if (prefetch == 1 || (prefetch == 3 && block == 0)) {
      _mm_prefetch(next, _MM_HINT_T1);
      _mm_prefetch(next + 64, _MM_HINT_T1);
    } else if (prefetch == 2) {
      _mm_prefetch(next, _MM_HINT_T0);
      _mm_prefetch(next + 64, _MM_HINT_T0);
    }
    __m512i low = _mm512_loadu_si512(weights);
    __m512i high = _mm512_loadu_si512(weights + 64);
#pragma clang loop unroll(full)
    for (int token = 0; token < 8; ++token) {
      __m512i x = _mm512_set1_epi32(activation[token]);
      acc[2 * token] = _mm512_dpbusd_epi32(acc[2 * token], low, x);
      acc[2 * token + 1] = _mm512_dpbusd_epi32(acc[2 * token + 1], high, x);
    }
    weights += 128;
    activation += 8;
    // Keep the steps a loop, as in the kernel (not unrolled 32 times).
    __asm__ volatile("" ::: "memory");
  }
  for (int i = 0; i < 16; ++i)
    accumulators[i] = _mm512_add_epi32(accumulators[i], acc[i]);
}

int main(int argc, char **argv) {
  int tiles = argc > 1 ? atoi(argv[1]) : 128;
  int layout = argc > 2 ? atoi(argv[2]) : 0;
  int prefetch = argc > 3 ? atoi(argv[3]) : 1;
  long ahead = argc > 4 ? atol(argv[4]) : 4096;
  size_t weightBytes = (size_t)tiles * kGroups * kTileGroupBytes;
  size_t activationBytes = (size_t)kBlocks * kGroups * 1024;
  int8_t *weights = aligned_alloc(64, weightBytes);
  int32_t *activation = aligned_alloc(64, activationBytes);
  __m512i *accumulators = aligned_alloc(64, kBlocks * 16 * 64);
  if (!weights || !activation || !accumulators) {
    fprintf(stderr, "prefill-kloop: cannot allocate %zu bytes\n",
            weightBytes + activationBytes);
    return 1;
  }
  memset(weights, 1, weightBytes);
  memset(activation, 1, activationBytes);
  memset(accumulators, 0, kBlocks * 16 * 64);
  for (int repetition = 0; repetition < 4; ++repetition) {
    double start = seconds();
    for (int tile = 0; tile < tiles; ++tile)
      for (int group = 0; group < kGroups; ++group)
        for (int block = 0; block < kBlocks; ++block) {
          size_t slice = layout ? (size_t)group * kBlocks + block
                                : (size_t)block * kGroups + group;
          groupBlock(weights +
                         ((size_t)tile * kGroups + group) * kTileGroupBytes,
                     activation + slice * 256, accumulators + block * 16,
                     prefetch, ahead, block);
        }
    double elapsed = seconds() - start;
    double ops = (double)tiles * kGroups * kBlocks * kSteps * 16 * 128;
    printf("tiles %d layout %d prefetch %d ahead %ld: %.1f GOP/s (%.0f us)\n",
           tiles, layout, prefetch, ahead, ops / elapsed / 1e9, elapsed * 1e6);
  }
  // The sums are the result: keep them observable.
  int32_t check = 0;
  for (int i = 0; i < kBlocks * 16; ++i)
    check += _mm512_reduce_add_epi32(accumulators[i]);
  return check == 42;
}
