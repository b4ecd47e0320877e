// TopLAllExperts in AVX-512 for n <= 16 patches: an expert's n routing values fill one vector, and
// each value's rank (how many come before it: larger, or equal at a lower index) is counted
// against all n at once, one broadcast and two compares per patch. The same ranks as the scalar
// rule in topl.hpp, so the same routes.
#include "pmoe/models/topl.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pmoe {

#if defined(__AVX512F__)

bool TopLAllExpertsSimd(const float* scores, int n, int k, int l, int* out) {
  if (n > 16 || l > n) return false;
  const __mmask16 valid = static_cast<__mmask16>((1u << n) - 1);
  // Lane j reads patch j's value: scores[j * k + s] for expert s.
  const __m512i patch_offsets = _mm512_mullo_epi32(
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32(k));
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
  return true;
}

#else

bool TopLAllExpertsSimd(const float*, int, int, int, int*) { return false; }

#endif

}  // namespace pmoe
