// The f32 prefill's block loop alone, as a micro-kernel, for each register
// tile TOKENS x 16*VECTORS: where hardware counters are missing (KVM), it
// shows what the loop form itself reaches, apart from the memory system,
// the weights' conversion and the group epilogue (docs/benchmarks.md, stop
// 40). Not part of the build or the tests.
//
// Per call (a group of 128 k steps, one block of tokens): the accumulators
// zeroed, 128 k steps of VECTORS weight loads (f32, converted ahead, as
// @convert_weights_once_per_group leaves them), TOKENS broadcasts and
// TOKENS x VECTORS FMAs, then the accumulators added to the result -- the
// loop test/Driver/prefill-loop-mix.mlir pins (12 x 32 on Intel: 24 FMAs,
// 12 broadcasts, 2 loads per k step). The f32 peak is measured alike, 24
// independent FMA chains without loads.
//
// With -DCONVERT the weights are bytes, widened and converted in the k
// loop (vpmovzxbd, vcvtdq2ps) as a prefill whose blocks convert them does
// (fewer than 8 blocks of tokens, or the generic scripts).
//
//   /usr/lib/llvm-22/bin/clang -O2 -march=sapphirerapids -DTOKENS=12 \
//       -DVECTORS=2 [-DCONVERT] scripts/micro/prefill-f32-tiles.c -o /tmp/tiles
//   /tmp/tiles BLOCKS
//
// BLOCKS   distinct activation blocks the calls rotate over (6 KiB each for
//          12 tokens): 1 keeps the activation in L1, 64 in L2, 4096 in L3
//          or memory (the kernel at M = 128 reads it from L3).
// Prints GFLOP/s, the peak and their ratio, three times.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef TOKENS
#define TOKENS 12
#endif
#ifndef VECTORS
#define VECTORS 2
#endif

enum { kSteps = 128, kLanes = 16 };

static float weights[kSteps * kLanes * VECTORS] __attribute__((aligned(64)));
static unsigned char bytes[kSteps * kLanes * VECTORS]
    __attribute__((aligned(64)));
static float result[TOKENS * kLanes * VECTORS] __attribute__((aligned(64)));

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static void block(const float *activation,
                                            const float *w) {
  __m512 acc[TOKENS][VECTORS];
  for (int t = 0; t < TOKENS; ++t)
    for (int v = 0; v < VECTORS; ++v)
      acc[t][v] = _mm512_setzero_ps();
  for (int k = 0; k < kSteps; ++k) {
    __m512 row[VECTORS];
    for (int v = 0; v < VECTORS; ++v)
#ifdef CONVERT
      row[v] = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_load_si128(
          (const __m128i *)(bytes + (k * VECTORS + v) * kLanes))));
#else
      row[v] = _mm512_load_ps(w + (k * VECTORS + v) * kLanes);
#endif
    for (int t = 0; t < TOKENS; ++t) {
      __m512 x = _mm512_set1_ps(activation[k * TOKENS + t]);
      for (int v = 0; v < VECTORS; ++v)
        acc[t][v] = _mm512_fmadd_ps(x, row[v], acc[t][v]);
    }
  }
  for (int t = 0; t < TOKENS; ++t)
    for (int v = 0; v < VECTORS; ++v) {
      float *out = result + (t * VECTORS + v) * kLanes;
      _mm512_store_ps(out, _mm512_add_ps(_mm512_load_ps(out), acc[t][v]));
    }
}

__attribute__((noinline)) static void peak(long iterations) {
  __m512 acc[24];
  for (int i = 0; i < 24; ++i)
    acc[i] = _mm512_set1_ps((float)i);
  __m512 a = _mm512_set1_ps(1.0000001f), b = _mm512_set1_ps(0.999f);
  for (long i = 0; i < iterations; ++i) {
    for (int j = 0; j < 24; ++j)
      acc[j] = _mm512_fmadd_ps(acc[j], a, b);
    __asm__ volatile("" : "+v"(a));
  }
  for (int i = 0; i < 24; ++i)
    _mm512_store_ps(result, _mm512_add_ps(_mm512_load_ps(result), acc[i]));
}

int main(int argc, char **argv) {
  long blocks = argc > 1 ? atol(argv[1]) : 1;
  long blockFloats = (long)kSteps * TOKENS;
  float *activation =
      aligned_alloc(64, ((blocks * blockFloats * 4 + 63) / 64) * 64);
  for (long i = 0; i < kSteps * kLanes * VECTORS; ++i)
    weights[i] = i * 1e-3f, bytes[i] = (unsigned char)(i * 7);
  for (long i = 0; i < blocks * blockFloats; ++i)
    activation[i] = i * 1e-4f;
  for (int round = 0; round < 3; ++round) {
    long calls = 200000;
    double t0 = seconds();
    for (long i = 0; i < calls; ++i)
      block(activation + (i % blocks) * blockFloats, weights);
    double t1 = seconds();
    double gflops =
        calls * 2.0 * kSteps * TOKENS * kLanes * VECTORS / (t1 - t0) / 1e9;
    long iterations = 20000000;
    double t2 = seconds();
    peak(iterations);
    double t3 = seconds();
    double peakGflops = iterations * 24.0 * kLanes * 2 / (t3 - t2) / 1e9;
    printf("%d tokens x %d rows, %ld blocks: %.1f GFLOP/s, peak %.1f, %.3f\n",
           TOKENS, kLanes * VECTORS, blocks, gflops, peakGflops,
           gflops / peakGflops);
  }
  free(activation);
  return 0;
}
