// The joint pMoE's float exponential against double precision over its whole domain.
#include "pmoe/core/fast_exp.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace pmoe {

TEST_CASE("ExpNonPositive is within 2 ulp of e^x and 0 below e^-87", "[kernels]") {
  CHECK(ExpNonPositive(0.0f) == 1.0f);
  double worst_ulp = 0;
  int nonzero_below = 0;
  // Every 97th float from -0 down to -88 (about 11 million values).
  for (uint32_t bits = 0x80000000u;; bits += 97) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    if (x < -88.0f) break;
    const float e = ExpNonPositive(x);
    if (x < -87.0f) {
      nonzero_below += e != 0.0f;
    } else {
      const double ref = std::exp(static_cast<double>(x));
      const float ref_f = static_cast<float>(ref);
      const double ulp = std::nextafter(ref_f, 2.0f) - ref_f;
      worst_ulp = std::max(worst_ulp, std::abs(e - ref) / ulp);
    }
  }
  INFO("worst error " << worst_ulp << " ulp");
  CHECK(worst_ulp < 2.0);
  CHECK(nonzero_below == 0);
  CHECK(ExpNonPositive(-1000.0f) == 0.0f);
  CHECK(ExpNonPositive(-INFINITY) == 0.0f);
}

}  // namespace pmoe
