// e^x in float for x <= 0 without a library call, so that a loop of them vectorizes (the joint
// pMoE's softmax gates, whose arguments are routing values minus the largest). Cody-Waite
// reduction x = n ln2 + r, |r| <= ln2 / 2, and Cephes' degree-7 polynomial for e^r: within 2 ulp
// of e^x (tested against double), 0 below e^-87 (float's smallest normal is e^-87.3).
#pragma once

#include <cstdint>
#include <cstring>

namespace pmoe {

inline float ExpNonPositive(float x) {
  const float clamped = x < -87.0f ? -87.0f : x;  // keeps 2^n a normal float
  const float n = __builtin_rintf(clamped * 1.44269504088896341f);
  float r = clamped - n * 0.693359375f;  // ln 2 in two parts: n * hi is exact
  r = r - n * -2.12194440e-4f;
  const float p =
      ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r + 4.1665795894e-2f) *
           r +
       1.6666665459e-1f) *
          r +
      5.0000001201e-1f;
  const float er = p * (r * r) + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return x < -87.0f ? 0.0f : er * scale;
}

}  // namespace pmoe
