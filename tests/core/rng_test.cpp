// The random streams: reproducible, and with the moments their distributions promise.
#include "pmoe/core/rng.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "pmoe/core/fast_normal.hpp"

namespace pmoe {

TEST_CASE("Rng streams are reproducible and seed-dependent", "[rng]") {
  Rng a(7), b(7), c(8);
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    CHECK(x == b.Next());
    CHECK(x != c.Next());
  }
}

TEST_CASE("Normal has mean 0 and variance 1 and Below is uniform", "[rng]") {
  Rng rng(1);
  const int n = 200000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double z = rng.Normal();
    sum += z;
    sum2 += z * z;
  }
  CHECK(std::abs(sum / n) < 0.01);
  CHECK(std::abs(sum2 / n - 1) < 0.02);
  int hist[5] = {0};
  for (int i = 0; i < n; ++i) ++hist[rng.Below(5)];
  for (int h : hist) CHECK(h == Approx(n / 5).epsilon(0.02));
}
TEST_CASE("FillNormals' transforms: -2 ln u and sin/cos 2 pi u at float accuracy", "[rng]") {
  // Every u the generator can produce, (i + 1/2) 2^-24 and i 2^-24: near u = 1 the radius is
  // tiny, where a log computed as e ln 2 + ln m with m near 2 would cancel to few digits.
  double worst_log = 0, worst_sincos = 0;
  for (int i = 0; i < (1 << 24); i += 7) {
    const float u1 = (static_cast<float>(i) + 0.5f) * (1.0f / 16777216.0f);
    const double ref = -2.0 * std::log(static_cast<double>(u1));
    worst_log = std::max(worst_log, std::abs(fast_normal_detail::MinusTwoLog(u1) - ref) / ref);
    const float u2 = static_cast<float>(i) * (1.0f / 16777216.0f);
    float s, c;
    fast_normal_detail::SinCos2Pi(u2, &s, &c);
    const double turn = 2 * M_PI * static_cast<double>(u2);
    worst_sincos =
        std::max({worst_sincos, std::abs(s - std::sin(turn)), std::abs(c - std::cos(turn))});
  }
  CHECK(worst_log < 3e-7);
  CHECK(worst_sincos < 2e-7);
}

TEST_CASE("FillNormals: standard normal moments and tails, any slice the same numbers", "[rng]") {
  const int n = 1 << 20;
  std::vector<float> z(n);
  FillNormals(0x1234, 0, n, z.data());
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0, lag1 = 0;
  int beyond2 = 0, beyond3 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = z[i];
    m1 += x;
    m2 += x * x;
    m3 += x * x * x;
    m4 += x * x * x * x;
    if (i > 0) lag1 += x * z[i - 1];
    beyond2 += std::abs(x) > 2;
    beyond3 += std::abs(x) > 3;
  }
  // Margins 4-5 standard errors for 2^20 numbers.
  CHECK(std::abs(m1 / n) < 0.005);
  CHECK(m2 / n == Approx(1).margin(0.007));
  CHECK(std::abs(m3 / n) < 0.02);
  CHECK(m4 / n == Approx(3).margin(0.04));
  CHECK(std::abs(lag1 / n) < 0.005);  // neighbours (the two values of a pair) uncorrelated
  CHECK(beyond2 / double(n) == Approx(0.0455).margin(0.001));
  CHECK(beyond3 / double(n) == Approx(0.0027).margin(0.00026));
  // Number i of a stream depends on (key, i) alone, whatever call produced it.
  std::vector<float> slice(301);
  FillNormals(0x1234, 1000, 301, slice.data());
  CHECK(std::equal(slice.begin(), slice.end(), z.begin() + 1000));
}

}  // namespace pmoe
