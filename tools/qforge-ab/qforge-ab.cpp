//===- qforge-ab.cpp - in-process A/B of decode kernels -------------------===//
//
//   qforge-ab N G K LIB.so [LIB.so ...]
//
// Each LIB.so is a decode kernel compiled with `qforge-compile --emit=shared`
// whose arguments are the seed's bytes in the seed's order: weights (N*G*K
// bytes), f32 scales and zero points (N*G each), the f32 activation (G*K);
// one f32 result of N. Their shapes may differ (the seed's NxGxK, a packed
// strategy's 64-row tiles (docs/abi.md), IREE's NxG parameters, torch-mlir's
// NxK weights ...): a kernel compiled for static shapes reads its own sizes,
// not the descriptors'. All of them run
// in one process, over the same rotating input copies (as qforge-bench's
// cold regime: at least 4x the last-level cache and 256 MiB), in rounds:
// per round one read pass over all copies (qforge-bench's, from
// lib/Bench/MemoryBandwidth), then 20 calls of each kernel in turn -- in the
// given order on even rounds and in the reverse order on odd ones, so that no
// kernel always runs right after the read pass. It prints the median time per
// call of each and its fraction of the best and of the median read pass. A slow
// spell of the shared machine falls on every kernel alike, so differences of a
// few percent show that separate qforge-bench runs (±5% apart) hide.
// scripts/ab.sh builds the libraries from scripts or kernel files.
//
// Each library's kernel signature, which qforge-compile records in it as
// the string _qforge_abi_quantized_matmul (docs/abi.md), is checked before
// any call: the seed's order and element types, and tensors that fit the
// buffers (the weights and parameters, padded to whole tiles of 64 rows;
// the activation G*K; the result N); a kernel that takes its arguments in
// another order is refused with a message, not called.
//
// Inputs are deterministic and not verified here: qforge-bench --verify
// checks each strategy. N, G and K must be the shape each library was
// compiled for (scripts/ab.sh makes sure): a kernel compiled for static
// shapes reads its own sizes, not the descriptors'. Threads:
// OMP_NUM_THREADS (the read pass uses one).
//
//===----------------------------------------------------------------------===//

#include "Bench/MemoryBandwidth.h"

#include <algorithm>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <time.h>
#include <vector>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} Memref4;
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} Memref3;
typedef void (*Kernel)(Memref4 *, Memref4 *, Memref4 *, Memref4 *, Memref3 *);

enum { kRows = 64, kRounds = 30, kCallsPerRound = 20, kMaxKernels = 8 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static Memref4 memref4(void *data, int64_t a, int64_t b, int64_t c, int64_t d) {
  Memref4 m = {data, data, 0, {a, b, c, d}, {b * c * d, c * d, d, 1}};
  return m;
}

/// One tensor of a recorded signature: its element count and type.
struct TensorSig {
  int64_t elements;
  std::string element;
};

/// The tensors of a printed function type "(tensor<AxBxT>, ...) ->
/// tensor<...>", inputs and results; false when it holds something else.
static bool parseSignature(const std::string &text,
                           std::vector<TensorSig> &inputs,
                           std::vector<TensorSig> &results) {
  size_t arrow = text.find("->");
  if (arrow == std::string::npos)
    return false;
  for (size_t at = 0; (at = text.find("tensor<", at)) != std::string::npos;) {
    size_t end = text.find('>', at);
    if (end == std::string::npos)
      return false;
    std::string body = text.substr(at + 7, end - at - 7);
    TensorSig tensor{1, ""};
    size_t start = 0;
    for (size_t x; (x = body.find('x', start)) != std::string::npos;
         start = x + 1) {
      std::string dim = body.substr(start, x - start);
      if (dim.empty() ||
          dim.find_first_not_of("0123456789") != std::string::npos)
        return false;
      tensor.elements *= atoll(dim.c_str());
    }
    tensor.element = body.substr(start);
    (at < arrow ? inputs : results).push_back(tensor);
    at = end;
  }
  return true;
}

/// Whether the kernel whose signature `text` records takes the seed's
/// arguments within the buffers; `why` says what differs.
static bool checkSignature(const std::string &text, int64_t n, int64_t groups,
                           int64_t k, size_t weightBytes, size_t paramBytes,
                           size_t resultFloats, std::string &why) {
  std::vector<TensorSig> inputs, results;
  if (!parseSignature(text, inputs, results) || inputs.size() != 4 ||
      results.size() != 1) {
    why = "it does not take 4 tensors (weights, scales, zero points, "
          "activation) and return one";
    return false;
  }
  const char *roles[] = {"weights", "scales", "zero points", "activation"};
  const char *types[] = {"i8", "f32", "f32", "f32"};
  for (int i = 0; i < 4; ++i)
    if (inputs[i].element != types[i]) {
      why = std::string("argument #") + std::to_string(i) + " (the " +
            roles[i] + " in the seed's order) is of " + inputs[i].element +
            ", not " + types[i];
      return false;
    }
  if ((size_t)inputs[0].elements > weightBytes ||
      (size_t)inputs[1].elements * 4 > paramBytes ||
      (size_t)inputs[2].elements * 4 > paramBytes ||
      inputs[3].elements != groups * k) {
    why = "its arguments are not the seed's weights (at most " +
          std::to_string(weightBytes) + " bytes), scales and zero points (" +
          std::to_string(paramBytes / 4) + " floats each at most) and " +
          "activation (" + std::to_string(groups * k) +
          " floats) in that order";
    return false;
  }
  if (results[0].element != "f32" || results[0].elements < n ||
      (size_t)results[0].elements > resultFloats) {
    why = "its result is not " + std::to_string(n) + " floats";
    return false;
  }
  return true;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 5 || argc - 4 > kMaxKernels) {
    fprintf(stderr, "usage: qforge-ab N G K LIB.so [LIB.so ...] (at most %d)\n",
            kMaxKernels);
    return 2;
  }
  const int64_t n = atoll(argv[1]), groups = atoll(argv[2]), k = atoll(argv[3]);
  if (n <= 0 || groups <= 0 || k <= 0) {
    fprintf(stderr, "qforge-ab: error: N, G, K must be positive\n");
    return 2;
  }
  const int numKernels = argc - 4;
  Kernel kernels[kMaxKernels];
  std::string signatures[kMaxKernels];
  for (int i = 0; i < numKernels; ++i) {
    void *library = dlopen(argv[i + 4], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      fprintf(stderr, "qforge-ab: error: %s\n", dlerror());
      return 1;
    }
    kernels[i] = (Kernel)dlsym(library, "_mlir_ciface_quantized_matmul");
    if (!kernels[i]) {
      fprintf(stderr,
              "qforge-ab: error: %s has no _mlir_ciface_quantized_matmul\n",
              argv[i + 4]);
      return 1;
    }
    const char *signature =
        (const char *)dlsym(library, "_qforge_abi_quantized_matmul");
    if (!signature) {
      fprintf(stderr,
              "qforge-ab: error: %s records no signature "
              "(_qforge_abi_quantized_matmul): compile it with this "
              "qforge-compile\n",
              argv[i + 4]);
      return 1;
    }
    signatures[i] = signature;
  }
  // Buffers hold whole 64-row tiles: a packed strategy pads N up to them
  // (docs/abi.md), an unpacked kernel reads its first N rows.
  const int64_t tiles = (n + kRows - 1) / kRows;
  const size_t weightBytes = (size_t)tiles * kRows * groups * k,
               paramBytes = (size_t)tiles * kRows * groups * 4;
  for (int i = 0; i < numKernels; ++i) {
    std::string why;
    if (!checkSignature(signatures[i], n, groups, k, weightBytes, paramBytes,
                        (size_t)tiles * kRows, why)) {
      fprintf(stderr,
              "qforge-ab: error: %s takes %s: %s; qforge-ab calls kernels "
              "with the seed's arguments (docs/abi.md)\n",
              argv[i + 4], signatures[i].c_str(), why.c_str());
      return 1;
    }
  }
  // What one call reads, N rows; the activation (one copy, in cache) counts
  // as qforge-bench counts it.
  const size_t callBytes =
      (size_t)n * groups * (k + 8) + (size_t)groups * k * 4;
  const size_t copiedBytes = weightBytes + 2 * paramBytes;
  const size_t rotateBytes =
      std::max<size_t>(4 * qforge::lastLevelCacheBytes(), 256u << 20);
  const size_t wanted = rotateBytes / copiedBytes + 1;
  const int copies = wanted < 2 ? 2 : wanted > 1000000 ? 1000000 : (int)wanted;
  uint8_t **weights =
      static_cast<uint8_t **>(malloc(copies * sizeof(*weights)));
  float **scales = static_cast<float **>(malloc(copies * sizeof(*scales)));
  float **zeros = static_cast<float **>(malloc(copies * sizeof(*zeros)));
  if (!weights || !scales || !zeros) {
    fprintf(stderr, "qforge-ab: error: out of memory\n");
    return 1;
  }
  for (int c = 0; c < copies; ++c) {
    weights[c] =
        static_cast<uint8_t *>(aligned_alloc(64, (weightBytes + 63) / 64 * 64));
    scales[c] =
        static_cast<float *>(aligned_alloc(64, (paramBytes + 63) / 64 * 64));
    zeros[c] =
        static_cast<float *>(aligned_alloc(64, (paramBytes + 63) / 64 * 64));
    if (!weights[c] || !scales[c] || !zeros[c]) {
      fprintf(stderr, "qforge-ab: error: out of memory for %d input copies\n",
              copies);
      return 1;
    }
    for (size_t i = 0; i < weightBytes; ++i)
      weights[c][i] = (uint8_t)(i * 7 + c);
    for (size_t i = 0; i < paramBytes / 4; ++i) {
      scales[c][i] = 1e-3f * (i % 13);
      zeros[c][i] = (float)(i % 17);
    }
  }
  float *activation = static_cast<float *>(aligned_alloc(64, groups * k * 4));
  for (int64_t i = 0; i < groups * k; ++i)
    activation[i] = (i % 11) * 0.1f - 0.5f;
  float *result = static_cast<float *>(aligned_alloc(64, tiles * kRows * 4));
  std::vector<qforge::ReadRegion> regions;
  for (int c = 0; c < copies; ++c) {
    regions.push_back({weights[c], weightBytes});
    regions.push_back({scales[c], paramBytes});
    regions.push_back({zeros[c], paramBytes});
  }
  Memref4 activationRef = memref4(activation, 1, 1, groups, k);
  Memref3 resultRef = {result, result, 0, {1, 1, n}, {n, n, 1}};

  static double times[kMaxKernels][kRounds * kCallsPerRound];
  double readGBps[kRounds];
  int calls = 0, copy = 0;
  volatile double resultSink = 0;
  for (int round = 0; round < kRounds; ++round) {
    readGBps[round] = qforge::measureReadBandwidth(regions, /*passes=*/1);
    for (int turn = 0; turn < numKernels; ++turn) {
      int kernel = round % 2 ? numKernels - 1 - turn : turn;
      for (int i = 0; i < kCallsPerRound; ++i, copy = (copy + 1) % copies) {
        Memref4 w = memref4(weights[copy], tiles, groups, k, kRows);
        Memref4 s = memref4(scales[copy], tiles, groups, 1, kRows);
        Memref4 z = memref4(zeros[copy], tiles, groups, 1, kRows);
        double callStart = now();
        kernels[kernel](&w, &s, &z, &activationRef, &resultRef);
        times[kernel][round * kCallsPerRound + i] = now() - callStart;
        resultSink += result[i % n];
      }
    }
    calls += kCallsPerRound;
  }
  qsort(readGBps, kRounds, sizeof(double), compareDoubles);
  double bestRead = readGBps[kRounds - 1], medianRead = readGBps[kRounds / 2];
  printf(
      "%lldx%lldx%lld, %d copies (%zu MiB), %d calls each; read pass: median "
      "%.2f GB/s, best %.2f GB/s\n",
      (long long)n, (long long)groups, (long long)k, copies,
      (size_t)copies * callBytes >> 20, calls, medianRead, bestRead);
  for (int kernel = 0; kernel < numKernels; ++kernel) {
    qsort(times[kernel], calls, sizeof(double), compareDoubles);
    double median = times[kernel][calls / 2], gbps = callBytes / median / 1e9;
    printf("%-40s median %8.1f us  %6.2f GB/s  of best read %.3f  of median "
           "read %.3f\n",
           argv[kernel + 4], median * 1e6, gbps, gbps / bestRead,
           gbps / medianRead);
  }
  return 0;
}
