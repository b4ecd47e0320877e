// Made-up result rows for the analysis tests: success curves whose N* is known.
#pragma once

#include <map>
#include <string>

#include "pmoe/analysis/results.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe::test {

// Appends one cell per N = 25, 50, ..., 6400 with `params` (and N) and `label`, each with
// `trials` Bernoulli trials of success probability sigmoid(slope * log(N / nstar)), drawn from
// `rng` in cell order, then trial order.
void AddLogisticCells(Results& results, const std::map<std::string, std::string>& params,
                      const std::string& label, double nstar, double slope, int trials, Rng& rng);

}  // namespace pmoe::test
