// DoubleSoftmaxTwo4 in AVX2 and FMA (the AVX-512 path runs it too: four doubles fill 256 bits):
// exp_log1p_lanes.hpp's operations on four lanes, each the scalar operation's IEEE twin.
#include <immintrin.h>

#include <cstdint>

#include "pmoe/models/double_softmax_lanes.hpp"

#pragma GCC push_options
#pragma GCC target("avx2,fma")

#include "pmoe/core/exp_log1p_lanes.hpp"

namespace pmoe {
namespace {

struct Avx2Lanes {
  using V = __m256d;
  using Mask = __m256d;
  static __m256i I(V a) { return _mm256_castpd_si256(a); }
  static V D(__m256i a) { return _mm256_castsi256_pd(a); }
  static V Set(double a) { return _mm256_set1_pd(a); }
  static V Add(V a, V b) { return _mm256_add_pd(a, b); }
  static V Sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V Div(V a, V b) { return _mm256_div_pd(a, b); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static Mask Lt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static Mask Gt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  static Mask Le(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
  static Mask Eq(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
  static Mask Unordered(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_UNORD_Q); }
  static Mask Or(Mask a, Mask b) { return _mm256_or_pd(a, b); }
  static V Select(Mask m, V a, V b) { return _mm256_blendv_pd(b, a, m); }
  static V ShiftLeft52(V a) { return D(_mm256_slli_epi64(I(a), 52)); }
  static V ShiftRight52(V a) { return D(_mm256_srli_epi64(I(a), 52)); }
  static V AddBits(V a, uint64_t b) {
    return D(_mm256_add_epi64(I(a), _mm256_set1_epi64x(static_cast<int64_t>(b))));
  }
  static V AndBits(V a, uint64_t b) {
    return D(_mm256_and_si256(I(a), _mm256_set1_epi64x(static_cast<int64_t>(b))));
  }
  static V OrBits(V a, uint64_t b) {
    return D(_mm256_or_si256(I(a), _mm256_set1_epi64x(static_cast<int64_t>(b))));
  }
};

}  // namespace

__attribute__((flatten)) void DoubleSoftmaxTwo4Avx2(const double* mine, const double* other,
                                                    double* value, double* g) {
  __m256d slope;
  const __m256d loss =
      DoubleSoftmaxTwoLanes<Avx2Lanes>(_mm256_loadu_pd(mine), _mm256_loadu_pd(other), slope);
  _mm256_storeu_pd(value, loss);
  _mm256_storeu_pd(g, slope);
}

}  // namespace pmoe

#pragma GCC pop_options
