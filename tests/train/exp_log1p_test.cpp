// ExpD and Log1pD (numerics version 8, the switch MoE's loss) against libm: within 1 ulp over
// the whole double range (a sweep of bit patterns and a fine grid where the loss uses them), the
// overflow and underflow edges, infinities, NaN and signed zeros.
#include "pmoe/core/exp_log1p.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>

namespace pmoe {
namespace {

// |a - ref| in units of ref's last place (subnormal ulp below the normal range).
double UlpError(double a, double ref) {
  if (a == ref) return 0;
  if (std::isnan(ref)) return std::isnan(a) ? 0 : 1e300;
  if (std::isinf(ref) || std::isinf(a) || std::isnan(a)) return 1e300;
  const double mag = std::fabs(ref);
  const double ulp =
      mag == 0 ? std::numeric_limits<double>::denorm_min() : std::nextafter(mag, INFINITY) - mag;
  return std::fabs(a - ref) / ulp;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every 2^40 / 3-th bit pattern of a positive double and its negative (about 13 000 values).
template <typename F>
void OverBitPatterns(F&& f) {
  for (uint64_t bits = 0; bits < 0x7ff0000000000000ULL; bits += 0x7ff0000000000ULL / 3) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    f(x);
    f(-x);
  }
}

}  // namespace

TEST_CASE("ExpD is within 1 ulp of std::exp over the whole range, edges included", "[loss]") {
  double worst = 0;
  auto check = [&](double x) { worst = std::max(worst, UlpError(ExpD(x), std::exp(x))); };
  OverBitPatterns(check);
  for (double x = -750; x <= 712; x += 0.00137) check(x);  // the gradual underflow included
  for (double x = -3; x <= 3; x += 1.0 / 4096) check(x);   // the switch loss's exp(1 - 2p)
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 1.0);
  const double inf = std::numeric_limits<double>::infinity();
  const double max_arg = 709.782712893384, min_arg = -745.1332191019411;  // last finite, last > 0
  CHECK(ExpD(max_arg) == std::exp(max_arg));
  CHECK(std::isfinite(ExpD(max_arg)));
  CHECK(ExpD(std::nextafter(max_arg, inf)) == inf);
  CHECK(ExpD(min_arg) == std::numeric_limits<double>::denorm_min());
  CHECK(ExpD(std::nextafter(min_arg, -inf)) == 0.0);
  CHECK(ExpD(1e300) == inf);
  CHECK(ExpD(-1e300) == 0.0);
  CHECK(ExpD(inf) == inf);
  CHECK(ExpD(-inf) == 0.0);
  CHECK(std::isnan(ExpD(std::nan(""))));
  CHECK(ExpD(0.0) == 1.0);
  CHECK(ExpD(-0.0) == 1.0);
  CHECK(ExpD(std::numeric_limits<double>::denorm_min()) == 1.0);
}

TEST_CASE("Log1pD is within 1 ulp of std::log1p over the whole range, edges included", "[loss]") {
  double worst = 0;
  auto check = [&](double x) {
    if (x > -1) worst = std::max(worst, UlpError(Log1pD(x), std::log1p(x)));
  };
  OverBitPatterns(check);
  for (double x = -1 + 1e-12; x <= 60; x += 0.000371) check(x);
  for (double x = 0.3; x <= 2.8; x += 1.0 / 65536) check(x);  // e^(1 - 2p), p in [0, 1]
  for (double x = 1e-300; x < 1e-5; x *= 1.37) {              // tiny of both signs
    check(x);
    check(-x);
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 1.0);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(Log1pD(-1.0) == -inf);
  CHECK(std::isnan(Log1pD(-1.5)));
  CHECK(std::isnan(Log1pD(-inf)));
  CHECK(std::isnan(Log1pD(std::nan(""))));
  CHECK(Log1pD(inf) == inf);
  CHECK(Log1pD(std::numeric_limits<double>::max()) ==
        std::log1p(std::numeric_limits<double>::max()));
  CHECK(SameBits(Log1pD(0.0), 0.0));
  CHECK(SameBits(Log1pD(-0.0), -0.0));
  CHECK(Log1pD(std::numeric_limits<double>::denorm_min()) ==
        std::numeric_limits<double>::denorm_min());
  CHECK(Log1pD(std::nextafter(-1.0, 0.0)) == std::log1p(std::nextafter(-1.0, 0.0)));
}

}  // namespace pmoe
