#include "support/synthetic_results.hpp"

#include <cmath>

namespace pmoe::test {

void AddLogisticCells(Results& results, const std::map<std::string, std::string>& params,
                      const std::string& label, double nstar, double slope, int trials, Rng& rng) {
  for (double N = 25; N <= 6400; N *= 2) {
    CellRecord cell;
    cell.params = params;
    cell.params["N"] = std::to_string(static_cast<int>(N));
    cell.label = label;
    const double p = 1 / (1 + std::exp(-slope * std::log(N / nstar)));
    for (int t = 0; t < trials; ++t) {
      TrialRecord trial;
      trial.cell = results.cells.size();
      trial.trial = t;
      trial.success = rng.Uniform() < p;
      results.trials.push_back(trial);
    }
    results.cells.push_back(cell);
  }
}

}  // namespace pmoe::test
