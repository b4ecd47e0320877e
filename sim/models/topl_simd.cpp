// TopLAllExperts in AVX-512 (and, for 3-8 experts, AVX2) for n <= 16 patches. Patch j's rank
// (how many patches come before it: larger, or equal at a lower index) is counted against the
// n - 1 others, and J_s[t] is the patch of rank t: the same ranks as the scalar rule in topl.hpp,
// so the same routes. With 3-16 experts they fill the lanes (row j of the scores is patch j's
// value for every expert: one load, and the n rank counts are independent chains); with fewer,
// one expert at a time fills the lanes with its n values instead.
#include <immintrin.h>

#include "pmoe/models/kernel_path.hpp"
#include "pmoe/models/topl.hpp"

namespace pmoe {
namespace {

// Compiled for AVX-512 whatever the build's -march, and run only on CPUs that have it; the
// scalar TopL computes the same routes elsewhere.
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl")
// GCC 12's `_mm512_undefined_ps()` merge operands (GCC bug 105593): see row_lanes_forward.cpp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// The expert lanes as 8 (256-bit, half the work on cores that split 512-bit operations) or 16.
struct Lanes8 {
  using F = __m256;
  using I = __m256i;
  using M = __mmask8;
  static M FirstLanes(int k) { return static_cast<M>((1u << k) - 1); }
  static F Load(M m, const float* p) { return _mm256_maskz_loadu_ps(m, p); }
  static M Ge(F a, F b) { return _mm256_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  static M Gt(F a, F b) { return _mm256_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static I Zero() { return _mm256_setzero_si256(); }
  static I Set1(int x) { return _mm256_set1_epi32(x); }
  static I AddIf(I r, M m, I one) { return _mm256_mask_add_epi32(r, m, r, one); }
  static M Eq(I a, I b) { return _mm256_cmpeq_epi32_mask(a, b); }
  static I MoveIf(I a, M m, I b) { return _mm256_mask_mov_epi32(a, m, b); }
  static void Store(int* p, I v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
};
struct Lanes16 {
  using F = __m512;
  using I = __m512i;
  using M = __mmask16;
  static M FirstLanes(int k) { return static_cast<M>((1u << k) - 1); }
  static F Load(M m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
  static M Ge(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  static M Gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static I Zero() { return _mm512_setzero_si512(); }
  static I Set1(int x) { return _mm512_set1_epi32(x); }
  static I AddIf(I r, M m, I one) { return _mm512_mask_add_epi32(r, m, r, one); }
  static M Eq(I a, I b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static I MoveIf(I a, M m, I b) { return _mm512_mask_mov_epi32(a, m, b); }
  static void Store(int* p, I v) { _mm512_storeu_si512(p, v); }
};

namespace rank512 {
#include "topl_rank.inc"
}  // namespace rank512

// Two samples at once for 3-8 experts: sample a's experts in lanes 0-7 of a 512-bit vector,
// b's in lanes 8-15 (with 8 lanes, half of each compare and add was idle on cores with
// full-width units). The same ranks as RankAndSelect, so the same routes.
template <int N>
void RankAndSelectPair(const float* a, const float* b, int n, int k, int l, int* out_a,
                       int* out_b) {
  if constexpr (N > 0) n = N;
  const __mmask8 experts = static_cast<__mmask8>((1u << k) - 1);
  __m512 v[16];
  for (int j = 0; j < n; ++j)
    v[j] = _mm512_insertf32x8(_mm512_zextps256_ps512(_mm256_maskz_loadu_ps(experts, a + j * k)),
                              _mm256_maskz_loadu_ps(experts, b + j * k), 1);
  const __m512i one = _mm512_set1_epi32(1);
  __m512i rank[16];
#pragma GCC unroll 16
  for (int j = 0; j < n; ++j) {
    __m512i r = _mm512_setzero_si512();
    // Patch i comes before patch j when v_i > v_j, or v_i = v_j and i < j.
#pragma GCC unroll 16
    for (int i = 0; i < n; ++i)
      if (i != j)
        r = _mm512_mask_add_epi32(r,
                                  i < j ? _mm512_cmp_ps_mask(v[i], v[j], _CMP_GE_OQ)
                                        : _mm512_cmp_ps_mask(v[i], v[j], _CMP_GT_OQ),
                                  r, one);
    rank[j] = r;
  }
  alignas(64) int chosen[16];
  for (int t = 0; t < l; ++t) {
    // The lowest patch of rank t (patch 0 when none has it: a NaN value).
    const __m512i want = _mm512_set1_epi32(t);
    __m512i patch = _mm512_setzero_si512();
#pragma GCC unroll 16
    for (int j = n - 1; j >= 0; --j)
      patch = _mm512_mask_mov_epi32(patch, _mm512_cmpeq_epi32_mask(rank[j], want),
                                    _mm512_set1_epi32(j));
    _mm512_store_si512(chosen, patch);
    for (int s = 0; s < k; ++s) {
      out_a[s * l + t] = chosen[s];
      out_b[s * l + t] = chosen[8 + s];
    }
  }
}

// One expert at a time, its n values in the lanes: better when few experts would fill few lanes.
void RankPerExpert(const float* scores, int n, int k, int l, int* out) {
  const __mmask16 valid = static_cast<__mmask16>((1u << n) - 1);
  // Lane j reads patch j's value: scores[j * k + s] for expert s.
  const __m512i patch_offsets =
      _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                         _mm512_set1_epi32(k));
  const __m512i one = _mm512_set1_epi32(1);
  for (int s = 0; s < k; ++s) {
    const __m512 v =
        _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, patch_offsets, scores + s, 4);
    __m512i rank = _mm512_setzero_si512();
    for (int i = 0; i < n; ++i) {
      const __m512 vi = _mm512_set1_ps(scores[i * k + s]);
      // Patch i comes before patch j when v_i > v_j, or v_i = v_j and i < j: for lanes j > i
      // that is v_i >= v_j, for the others v_i > v_j.
      const __mmask16 after_i = static_cast<__mmask16>(~((2u << i) - 1));
      const __mmask16 before = _mm512_mask_cmp_ps_mask(after_i, vi, v, _CMP_GE_OQ) |
                               _mm512_mask_cmp_ps_mask(~after_i, vi, v, _CMP_GT_OQ);
      rank = _mm512_mask_add_epi32(rank, before, rank, one);
    }
    for (int t = 0; t < l; ++t) {
      const unsigned at = _mm512_mask_cmpeq_epi32_mask(valid, rank, _mm512_set1_epi32(t));
      // Ranks are distinct unless a value is NaN (the loss then diverges): stay in range.
      out[s * l + t] = at ? __builtin_ctz(at) : 0;
    }
  }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

// The same ranks in AVX2 for 3-8 experts, on CPUs without AVX-512: compares give all-ones lanes
// instead of mask bits (subtracting one adds 1), a blend moves where they are set.
#pragma GCC push_options
#pragma GCC target("avx2,fma")

struct Avx2Lanes8 {
  using F = __m256;
  using I = __m256i;
  using M = __m256i;  // -1 in the lanes that hold
  static M FirstLanes(int k) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static F Load(M m, const float* p) { return _mm256_maskload_ps(p, m); }
  static M Ge(F a, F b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GE_OQ)); }
  static M Gt(F a, F b) { return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_GT_OQ)); }
  static I Zero() { return _mm256_setzero_si256(); }
  static I Set1(int x) { return _mm256_set1_epi32(x); }
  static I AddIf(I r, M m, I) { return _mm256_sub_epi32(r, m); }
  static M Eq(I a, I b) { return _mm256_cmpeq_epi32(a, b); }
  static I MoveIf(I a, M m, I b) { return _mm256_blendv_epi8(a, b, m); }
  static void Store(int* p, I v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
};

namespace rank256 {
#include "topl_rank.inc"
}  // namespace rank256

#pragma GCC pop_options

}  // namespace

bool TopLTwoSamplesSimd(const float* a, const float* b, int n, int k, int l, int* out_a,
                        int* out_b) {
  if (n > 16 || l > n || k < 3 || k > 8 || ActiveKernelPath() != KernelPath::kAvx512) return false;
  if (n == 16)
    RankAndSelectPair<16>(a, b, n, k, l, out_a, out_b);
  else
    RankAndSelectPair<0>(a, b, n, k, l, out_a, out_b);
  return true;
}

bool TopLAllExpertsSimd(const float* scores, int n, int k, int l, int* out) {
  if (n > 16 || l > n) return false;
  const KernelPath path = ActiveKernelPath();
  if (path == KernelPath::kAvx2 && k >= 3 && k <= 8) {
    rank256::RankAndSelectAnyN<Avx2Lanes8>(scores, n, k, l, out);
    return true;
  }
  if (path != KernelPath::kAvx512) return false;
  // Measured per sample, n = 16, l = 4: k = 2 in 87 ns with experts in lanes, 60 one expert at
  // a time; k = 3 about equal; k = 8 in 89 against 231.
  if (k <= 2 || k > 16)
    RankPerExpert(scores, n, k, l, out);
  else if (k <= 8)
    rank512::RankAndSelectAnyN<Lanes8>(scores, n, k, l, out);
  else
    rank512::RankAndSelectAnyN<Lanes16>(scores, n, k, l, out);
  return true;
}

}  // namespace pmoe
