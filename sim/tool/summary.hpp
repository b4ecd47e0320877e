// What pmoe-sim prints: a readable summary of a cell's trials, or everything as JSON.
#pragma once

#include <ostream>
#include <vector>

#include "pmoe/trial/trial.hpp"
#include "sim_options.hpp"

namespace pmoe {

void PrintSummary(std::ostream& out, const SimOptions& options,
                  const std::vector<TrialResult>& results, double elapsed_s);
void PrintJson(std::ostream& out, const SimOptions& options,
               const std::vector<TrialResult>& results, double elapsed_s);

}  // namespace pmoe
