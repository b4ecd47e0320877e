// Standard normal numbers in bulk, for the data generators' hot loops: counter-based (value i of
// a key depends on (key, i) alone, so the loop has no carried state and vectorizes) Box-Muller
// in float with polynomial log and sincos. Relative error below 1e-6: far below what any
// statistic of a trial can see, and the same bits on every run of the same build.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace pmoe {

namespace fast_normal_detail {

inline float BitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint32_t FloatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// -2 ln(x) for x in (0, 1], Box-Muller's squared radius: x = m 2^e with m in [sqrt(1/2),
// sqrt(2)) (so that near x = 1, e = 0 and nothing cancels), ln m = 2 atanh(t) =
// 2 t (1 + t^2/3 + ...), t = (m - 1)/(m + 1), |t| <= 0.172; the -2 folded into the constants.
// Within 3e-7 relative error everywhere (1 - x down to 2^-24).
inline float MinusTwoLog(float x) {
  const uint32_t shifted = FloatToBits(x) + (0x3f800000u - 0x3f3504f3u);  // x sqrt(2)'s exponent
  const float e = static_cast<float>(static_cast<int>(shifted >> 23) - 127);
  const float m = BitsToFloat((shifted & 0x7fffffu) + 0x3f3504f3u);
  const float t = (m - 1.0f) / (m + 1.0f), t2 = t * t;
  const float series =
      -4.0f + t2 * (-4.0f / 3 + t2 * (-4.0f / 5 + t2 * (-4.0f / 7 + t2 * (-4.0f / 9))));
  return e * -1.38629436f + t * series;
}

// sin and cos of 2 pi u for u in [0, 1): the nearest quarter turn q, then Cephes' sinf and cosf
// polynomials on the rest, a in [-pi/4, pi/4] (within 1.2e-7 of the true values).
inline void SinCos2Pi(float u, float* s, float* c) {
  const float quarter = u * 4.0f;
  const float nearest = __builtin_rintf(quarter);
  const int q = static_cast<int>(nearest) & 3;
  const float a = (quarter - nearest) * 1.5707963f, a2 = a * a;  // the difference is exact
  const float sa =
      a + a * a2 * (-1.6666654611e-1f + a2 * (8.3321608736e-3f + a2 * -1.9515295891e-4f));
  const float ca =
      1.0f - 0.5f * a2 +
      a2 * a2 *
          (4.166664568298827e-2f + a2 * (-1.388731625493765e-3f + a2 * 2.443315711809948e-5f));
  // Rotate by q quarter turns, (s, c) -> (c, -s) each, with bit operations only (no branch, so
  // the loop vectorizes): swap on odd q; sin negative for q = 2, 3; cos for q = 1, 2.
  const uint32_t swap = 0u - static_cast<uint32_t>(q & 1);
  const uint32_t sb = FloatToBits(sa), cb = FloatToBits(ca);
  const uint32_t neg_s = static_cast<uint32_t>(q >> 1) << 31;
  const uint32_t neg_c = static_cast<uint32_t>((q ^ (q >> 1)) & 1) << 31;
  *s = BitsToFloat(((cb & swap) | (sb & ~swap)) ^ neg_s);
  *c = BitsToFloat(((sb & swap) | (cb & ~swap)) ^ neg_c);
}

inline uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace fast_normal_detail

// out[0..count) = standard normals number first, first+1, ... of stream `key` (first even).
// Two passes per chunk, hashing to uniforms and then Box-Muller: GCC vectorizes each, not the
// fused loop (64-bit hash lanes beside 32-bit float lanes).
inline void FillNormals(uint64_t key, uint64_t first, int count, float* out) {
  using namespace fast_normal_detail;
  constexpr int kChunk = 256;  // pairs
  float u1[kChunk], u2[kChunk];
  uint64_t pair = first / 2;
  for (int done = 0; done < count; done += 2 * kChunk) {
    const int pairs = std::min(kChunk, (count - done + 1) / 2);
    const uint64_t base = key + pair * 0x9e3779b97f4a7c15ULL;
    uint64_t counter = base;  // base + i * golden, by addition: no 64-bit multiply per lane
    for (int i = 0; i < pairs; ++i, counter += 0x9e3779b97f4a7c15ULL) {
      const uint64_t h = Mix(counter);
      // 24-bit integers convert to float exactly; through int32 the conversion vectorizes.
      u1[i] = (static_cast<float>(static_cast<int32_t>(h >> 40)) + 0.5f) * (1.0f / 16777216.0f);
      u2[i] = static_cast<float>(static_cast<int32_t>((h >> 16) & 0xffffff)) * (1.0f / 16777216.0f);
    }
    float* dst = out + done;
    const int full = std::min(pairs, (count - done) / 2);
    for (int i = 0; i < full; ++i) {
      const float r = __builtin_sqrtf(MinusTwoLog(u1[i]));
      float s, c;
      SinCos2Pi(u2[i], &s, &c);
      dst[2 * i] = r * c;
      dst[2 * i + 1] = r * s;
    }
    if (full < pairs) {  // odd count: the last value is the first of its pair
      float s, c;
      SinCos2Pi(u2[full], &s, &c);
      dst[2 * full] = __builtin_sqrtf(MinusTwoLog(u1[full])) * c;
    }
    pair += pairs;
  }
}

}  // namespace pmoe
