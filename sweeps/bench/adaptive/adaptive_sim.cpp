// A fast simulation of the adaptive search against a fixed grid on synthetic success curves, with
// the analysis's own estimator of N* (logistic fit, paired bootstrap over trial indices) for
// both. Not a test: it prints figures and judges nothing.
//
//   adaptive_sim --slope 3 [--nstar 80] [--rho 0.3] [--repeats 40] [--round 4] [--budget 300]
//                [--target W | --target-scale S] [--bootstrap 1000] [--seed 1]
//
// The target is the grid's median relative width (times S) unless given. Prints, for both, the
// trials, the median relative 95 % width and coverage of the analysis's interval, and the root
// mean square error of log N* against the truth (the precision the widths stand for).
//
// Outcomes: trial t at N succeeds when Phi(sqrt(rho) z_t + sqrt(1 - rho) e_tN) < p(N), with
// p(N) = logistic(slope (log N - log N*)) and z_t, e_tN standard normal: p(N) is the success
// curve whatever rho is, and rho is the correlation, across N, of one trial index's latent
// (rho = 1: a trial that succeeds at N succeeds at every larger N; a real sweep's trials share
// their data across N, so they are correlated like that).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pmoe/core/rng.hpp"
#include "pmoe/stats/logistic_fit.hpp"
#include "pmoe/stats/stats.hpp"
#include "pmoe/sweep/adaptive/psi_search.hpp"
#include "pmoe/sweep/adaptive/series_interval.hpp"

namespace pmoe {
namespace {

struct Options {
  double slope = 3;  // per unit of log N
  double nstar = 80;
  double rho = 0.3;
  int repeats = 40;
  int bootstrap = 1000;
  double target = 0;  // 0: the grid's median width, times target_scale
  double target_scale = 1;
  int budget = 300;
  int round = 4;
  int N_min = 12, N_max = 1536;
  int grid_trials = 20;
  uint64_t seed = 1;
};

double Normal(Rng& rng) {
  const double u1 = (rng.Next() >> 11) * 0x1.0p-53 + 0x1.0p-54, u2 = rng.Uniform();
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

struct Curve {
  Options o;
  uint64_t repeat;
  std::vector<double> z;  // per trial index
  bool Success(int t, int n) const {
    Rng rng(CombineSeed(CombineSeed(o.seed * 7919 + repeat, t), n));
    const double e = Normal(rng);
    const double u = Phi(std::sqrt(o.rho) * z[t] + std::sqrt(1 - o.rho) * e);
    const double p = 1 / (1 + std::exp(-o.slope * (std::log(n) - std::log(o.nstar))));
    return u < p;
  }
};

struct Outcome {
  int trials = 0;
  ThresholdEstimate posterior;  // the search's own (adaptive only)
  SeriesInterval interval;
  double Width() const { return interval.RelativeWidth(); }
  bool Covers(double truth) const { return interval.lo <= truth && truth <= interval.hi; }
};

std::vector<int> GridNs(const Options& o) {
  std::vector<int> out;
  for (double x = o.N_min; x <= o.N_max * 1.0001; x *= 1.414) out.push_back(std::lround(x));
  return out;
}

Outcome RunGrid(const Curve& curve) {
  std::vector<SeriesCell> cells;
  for (int n : GridNs(curve.o)) {
    SeriesCell cell{double(n), {}};
    for (int t = 0; t < curve.o.grid_trials; ++t) cell.trials.push_back({t, curve.Success(t, n)});
    cells.push_back(cell);
  }
  Outcome out;
  out.trials = curve.o.grid_trials * static_cast<int>(cells.size());
  out.interval = BootstrapInterval(cells, 0.5, curve.o.bootstrap, curve.repeat);
  return out;
}

Outcome RunAdaptive(const Curve& curve, double target) {
  AdaptiveSettings s;
  s.N_min = curve.o.N_min;
  s.N_max = curve.o.N_max;
  s.target = target;
  s.budget = curve.o.budget;
  s.round = curve.o.round;
  PsiSearch search(s);
  std::vector<SeriesCell> cells;
  for (int n : search.candidates()) cells.push_back({double(n), {}});
  while (const auto round = search.Next()) {
    SeriesCell& cell = cells[round->candidate];
    std::vector<bool> outcomes;
    for (int t = round->first_trial; t < round->first_trial + round->trials; ++t) {
      outcomes.push_back(curve.Success(t, int(cell.N)));
      cell.trials.push_back({t, outcomes.back()});
    }
    search.Observe(round->candidate, outcomes);
  }
  Outcome out;
  out.trials = search.trials_used();
  out.posterior = search.Posterior();
  out.interval = BootstrapInterval(cells, 0.5, curve.o.bootstrap, curve.repeat);
  return out;
}

double Median(std::vector<double> v) { return Percentile(v, 0.5); }

int Main(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--slope")
      o.slope = std::atof(value.c_str());
    else if (key == "--nstar")
      o.nstar = std::atof(value.c_str());
    else if (key == "--rho")
      o.rho = std::atof(value.c_str());
    else if (key == "--repeats")
      o.repeats = std::atoi(value.c_str());
    else if (key == "--bootstrap")
      o.bootstrap = std::atoi(value.c_str());
    else if (key == "--target")
      o.target = std::atof(value.c_str());
    else if (key == "--target-scale")
      o.target_scale = std::atof(value.c_str());
    else if (key == "--budget")
      o.budget = std::atoi(value.c_str());
    else if (key == "--round")
      o.round = std::atoi(value.c_str());
    else if (key == "--seed")
      o.seed = std::strtoull(value.c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  std::vector<Curve> curves;
  for (int r = 0; r < o.repeats; ++r) {
    Curve c{o, uint64_t(r), {}};
    Rng rng(CombineSeed(o.seed, 1000 + r));
    for (int t = 0; t < std::max(o.budget, o.grid_trials) + 1; ++t) c.z.push_back(Normal(rng));
    curves.push_back(c);
  }
  std::vector<Outcome> grid;
  std::vector<double> grid_widths;
  for (const Curve& c : curves) {
    grid.push_back(RunGrid(c));
    if (std::isfinite(grid.back().Width())) grid_widths.push_back(grid.back().Width());
  }
  const double target = o.target > 0 ? o.target : o.target_scale * Median(grid_widths);
  std::vector<double> adaptive_widths, trials, posterior_widths;
  int covered_grid = 0, covered_adaptive = 0, inside = 0, covered_posterior = 0;
  double se_grid = 0, se_adaptive = 0, se_posterior = 0;
  int n_grid = 0, n_adaptive = 0;
  const double truth = std::log(o.nstar);
  for (size_t r = 0; r < curves.size(); ++r) {
    const Outcome a = RunAdaptive(curves[r], target);
    trials.push_back(a.trials);
    if (std::isfinite(a.Width())) adaptive_widths.push_back(a.Width());
    inside += std::isfinite(a.Width());
    covered_grid += grid[r].Covers(o.nstar);
    covered_adaptive += a.Covers(o.nstar);
    covered_posterior += a.posterior.lo <= o.nstar && o.nstar <= a.posterior.hi;
    posterior_widths.push_back(a.posterior.RelativeWidth());
    se_posterior += std::pow(std::log(a.posterior.median) - truth, 2);
    if (std::isfinite(a.interval.estimate)) {
      se_adaptive += std::pow(std::log(a.interval.estimate) - truth, 2);
      ++n_adaptive;
    }
    if (std::isfinite(grid[r].interval.estimate)) {
      se_grid += std::pow(std::log(grid[r].interval.estimate) - truth, 2);
      ++n_grid;
    }
  }
  const double grid_trials = grid[0].trials;
  std::printf(
      "slope %.2f (per log N; %.2f per log2 N) N* %.0f rho %.2f round %d: grid %d trials, "
      "median width %.3f, covers %d/%d | adaptive median trials %.0f (ratio %.3f, mean %.3f), "
      "median width %.3f (%d finite), covers %d/%d\n",
      o.slope, o.slope * std::log(2.0), o.nstar, o.rho, o.round, int(grid_trials), target,
      covered_grid, o.repeats, Median(trials), Median(trials) / grid_trials,
      MeanSd(trials).mean / grid_trials, Median(adaptive_widths), inside, covered_adaptive,
      o.repeats);
  std::printf(
      "  rms error of log N*: grid %.3f, adaptive %.3f (fit), %.3f (posterior median) | posterior "
      "median width %.3f covers %d/%d\n",
      std::sqrt(se_grid / n_grid), std::sqrt(se_adaptive / n_adaptive),
      std::sqrt(se_posterior / o.repeats), Median(posterior_widths), covered_posterior, o.repeats);
  return 0;
}

}  // namespace
}  // namespace pmoe

int main(int argc, char** argv) { return pmoe::Main(argc, argv); }
