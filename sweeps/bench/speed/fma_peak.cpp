// Independent FMA chains, as many as the registers hold without spilling, each FMA's result
// feeding only its own chain's next FMA: the core's FMA pipes stay full whatever their latency.
// Compiled per instruction set with target attributes and chosen at run time.
#include "fma_peak.hpp"

#include <immintrin.h>

#include <algorithm>
#include <chrono>

namespace pmoe {
namespace {

constexpr long kIterations = 20'000'000;

template <typename Body>
double BestGflops(Body body, double flop_per_iteration) {
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    const auto start = std::chrono::steady_clock::now();
    volatile float sink = body();
    (void)sink;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, flop_per_iteration * kIterations / s / 1e9);
  }
  return best;
}

__attribute__((target("avx512f"))) float Chains512() {
  __m512 acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = _mm512_set1_ps(1.0f + i * 1e-3f);
  const __m512 a = _mm512_set1_ps(0.9999999f), b = _mm512_set1_ps(1e-7f);
  for (long it = 0; it < kIterations; ++it)
    for (int i = 0; i < 16; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < 16; ++i) sum = _mm512_add_ps(sum, acc[i]);
  float lanes[16];
  _mm512_storeu_ps(lanes, sum);
  return lanes[0] + lanes[15];
}

__attribute__((target("avx2,fma"))) float Chains256() {
  __m256 acc[12];  // 16 ymm registers: 12 chains and the two constants
  for (int i = 0; i < 12; ++i) acc[i] = _mm256_set1_ps(1.0f + i * 1e-3f);
  const __m256 a = _mm256_set1_ps(0.9999999f), b = _mm256_set1_ps(1e-7f);
  for (long it = 0; it < kIterations; ++it)
    for (int i = 0; i < 12; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  __m256 sum = acc[0];
  for (int i = 1; i < 12; ++i) sum = _mm256_add_ps(sum, acc[i]);
  float lanes[8];
  _mm256_storeu_ps(lanes, sum);
  return lanes[0] + lanes[7];
}

}  // namespace

FmaPeak MeasureFmaPeak(bool allow_avx512) {
  __builtin_cpu_init();
  if (allow_avx512 && __builtin_cpu_supports("avx512f"))
    return {BestGflops(Chains512, 16 * 16 * 2), "AVX-512: 16 chains of 512-bit FMA"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {BestGflops(Chains256, 12 * 8 * 2), "AVX2: 12 chains of 256-bit FMA"};
  return {0, "no FMA on this CPU"};
}

}  // namespace pmoe
