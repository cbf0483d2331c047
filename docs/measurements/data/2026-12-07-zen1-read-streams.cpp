#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
typedef uint64_t L __attribute__((vector_size(32)));
template <int S>
__attribute__((target("avx2"), noinline)) uint64_t sum(const char *data,
                                                       size_t bytes) {
  size_t per = bytes / S / 32 / 4 * 4; // vectors per stream
  const L *p[S];
  for (int s = 0; s < S; ++s)
    p[s] = (const L *)(data + s * (bytes / S));
  L acc[4] = {};
  for (size_t i = 0; i < per; i += 4 / (S < 4 ? S : 4) * 1) {
    if constexpr (S == 1) {
      acc[0] += p[0][i];
      acc[1] += p[0][i + 1];
      acc[2] += p[0][i + 2];
      acc[3] += p[0][i + 3];
      i += 3;
    } else if constexpr (S == 2) {
      acc[0] += p[0][i];
      acc[1] += p[1][i];
      acc[2] += p[0][i + 1];
      acc[3] += p[1][i + 1];
      i += 1;
    } else {
      for (int s = 0; s < S; ++s)
        acc[s & 3] += p[s][i];
      i += 0;
    }
  }
  L t = acc[0] + acc[1] + acc[2] + acc[3];
  return t[0] + t[3];
}
int main() {
  size_t region = 18u << 20;
  int n = 40; // 2.1 GiB rotating
  char *buf = (char *)aligned_alloc(4096, region * n);
  memset(buf, 1, region * n);
  volatile uint64_t sink = 0;
  for (int round = 0; round < 4; ++round) {
    double best[4] = {};
    auto run = [&](int k, auto f) {
      auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < n; ++r)
        sink = sink + f(buf + r * region, region);
      double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
      double g = region * (double)n / s / 1e9;
      if (g > best[k])
        best[k] = g;
    };
    for (int rep = 0; rep < 2; ++rep) {
      run(0, sum<1>);
      run(1, sum<2>);
      run(2, sum<4>);
      run(3, sum<8>);
    }
    printf("1:%.1f 2:%.1f 4:%.1f 8:%.1f\n", best[0], best[1], best[2], best[3]);
  }
}
