// Newton's method with step halving on the penalized log-likelihood. x = log N is centered and
// scaled first, so one penalty strength suits any N grid.
#include "pmoe/stats/logistic_fit.hpp"

#include <cmath>
#include <limits>

namespace pmoe {
namespace {

// Penalty lambda/2 (alpha^2 + beta^2) on the standardized coefficients: negligible next to a few
// dozen trials, decisive only where the likelihood alone has no maximum.
constexpr double kRidge = 0.05;

double Sigmoid(double z) {
  return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

double Objective(const std::vector<SuccessPoint>& p, const std::vector<double>& x, double alpha,
                 double beta) {
  double value = -0.5 * kRidge * (alpha * alpha + beta * beta);
  for (size_t i = 0; i < p.size(); ++i) {
    const double z = alpha + beta * x[i];
    // log sigmoid(z) and log(1 - sigmoid(z)), stable for large |z|
    const double log_p = z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
    const double log_q = log_p - z;
    value += p[i].successes * log_p + (p[i].trials - p[i].successes) * log_q;
  }
  return value;
}

}  // namespace

double LogisticCurve::Probability(double N) const { return Sigmoid(a + b * std::log(N)); }

double LogisticCurve::Crossing(double threshold) const {
  if (!(b > 0)) return std::numeric_limits<double>::infinity();
  return std::exp((std::log(threshold / (1 - threshold)) - a) / b);
}

LogisticCurve FitLogistic(const std::vector<SuccessPoint>& points) {
  LogisticCurve curve;
  if (points.empty()) return curve;
  double mean = 0, weight = 0;
  for (const auto& p : points) {
    mean += std::log(p.N) * p.trials;
    weight += p.trials;
  }
  if (weight <= 0) return curve;
  mean /= weight;
  double var = 0;
  for (const auto& p : points) var += p.trials * std::pow(std::log(p.N) - mean, 2);
  const double scale = var > 0 ? std::sqrt(var / weight) : 1.0;
  std::vector<double> x;
  for (const auto& p : points) x.push_back((std::log(p.N) - mean) / scale);

  double alpha = 0, beta = 0;
  double current = Objective(points, x, alpha, beta);
  for (int iter = 0; iter < 100; ++iter) {
    double g0 = -kRidge * alpha, g1 = -kRidge * beta;
    double h00 = kRidge, h01 = 0, h11 = kRidge;  // negative Hessian
    for (size_t i = 0; i < points.size(); ++i) {
      const double s = Sigmoid(alpha + beta * x[i]);
      const double residual = points[i].successes - points[i].trials * s;
      const double w = points[i].trials * s * (1 - s);
      g0 += residual;
      g1 += residual * x[i];
      h00 += w;
      h01 += w * x[i];
      h11 += w * x[i] * x[i];
    }
    const double det = h00 * h11 - h01 * h01;
    double d0 = (h11 * g0 - h01 * g1) / det, d1 = (h00 * g1 - h01 * g0) / det;
    double step = 1, next = Objective(points, x, alpha + d0, beta + d1);
    while (next < current && step > 1e-8) {
      step /= 2;
      next = Objective(points, x, alpha + step * d0, beta + step * d1);
    }
    alpha += step * d0;
    beta += step * d1;
    const bool done = std::abs(next - current) < 1e-12 * (1 + std::abs(current));
    current = next;
    if (done) {
      curve.converged = true;
      break;
    }
  }
  // Back to log N: alpha + beta (log N - mean) / scale.
  curve.b = beta / scale;
  curve.a = alpha - curve.b * mean;
  return curve;
}

}  // namespace pmoe
