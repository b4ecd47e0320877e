// The random streams: reproducible, and with the moments their distributions promise.
#include <catch2/catch.hpp>

#include <cmath>

#include "pmoe/core/rng.hpp"

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

}  // namespace pmoe
