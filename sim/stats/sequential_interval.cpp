// Look schedule, alpha spending and the robust bootstrap interval of a precision target.
#include "pmoe/stats/sequential_interval.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace pmoe {
namespace {

// The q-quantile (linear interpolation) of sorted values that may hold +-inf.
double SortedQuantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double at = q * (sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(at));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double a = sorted[below], b = sorted[above];
  if (!std::isfinite(a) || !std::isfinite(b)) return at - below < 0.5 ? a : b;
  return a + (at - below) * (b - a);
}

// The replicates sorted, NaN replaced by `nan_as` (-inf or +inf).
std::vector<double> SortedWith(const std::vector<double>& values, double nan_as) {
  std::vector<double> out(values);
  for (double& v : out)
    if (std::isnan(v)) v = nan_as;
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<int> LookTotals(int first, int budget, int looks) {
  std::vector<int> totals;
  if (first <= 0 || budget < first || looks < 1) return totals;
  const double ratio = looks > 1 ? std::pow(double(budget) / first, 1.0 / (looks - 1)) : 1.0;
  for (int k = 0; k < looks; ++k) {
    const int n = k + 1 == looks ? budget : int(std::lround(first * std::pow(ratio, k)));
    if (totals.empty() || n > totals.back()) totals.push_back(std::min(n, budget));
  }
  if (totals.back() != budget) totals.push_back(budget);
  return totals;
}

std::vector<double> AlphaSpending(const std::vector<int>& totals, double alpha) {
  std::vector<double> spent;
  if (totals.empty()) return spent;
  int previous = 0;
  for (int n : totals) {
    spent.push_back(alpha * (n - previous) / totals.back());
    previous = n;
  }
  return spent;
}

double NormalQuantile(double p) {
  if (!(p > 0 && p < 1)) return p == 0 ? -kInf : p == 1 ? kInf : NAN;
  // Acklam (2003), coefficients of the central and tail rational approximations.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double low = 0.02425;
  double x;
  if (p < low || p > 1 - low) {
    const double q = std::sqrt(-2 * std::log(p < low ? p : 1 - p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    if (p > low) x = -x;
  } else {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  // One Halley step on Phi(x) - p, Phi from erfc (accurate in both tails).
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

double StudentQuantile(double p, double df) {
  if (df <= 0) return NormalQuantile(p);
  if (!(p > 0 && p < 1)) return p == 0 ? -kInf : p == 1 ? kInf : NAN;
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

DecisionInterval RobustInterval(double estimate, const std::vector<double>& replicates,
                                double alpha, double df) {
  DecisionInterval d{estimate, -kInf, kInf};
  if (!std::isfinite(estimate) || replicates.empty()) return d;
  const double one_sd = 0.5 * std::erfc(1 / std::sqrt(2.0));  // 15.87 %
  const std::vector<double> low = SortedWith(replicates, -kInf);
  const std::vector<double> high = SortedWith(replicates, kInf);
  const double s_lo = SortedQuantile(low, 0.5) - SortedQuantile(low, one_sd);
  const double s_hi = SortedQuantile(high, 1 - one_sd) - SortedQuantile(high, 0.5);
  const double z = StudentQuantile(1 - alpha / 2, df);
  if (std::isfinite(s_lo)) d.lo = estimate - z * s_lo;
  if (std::isfinite(s_hi)) d.hi = estimate + z * s_hi;
  return d;
}

}  // namespace pmoe
