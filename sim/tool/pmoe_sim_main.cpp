// pmoe-sim: runs T trials of one cell on all cores and prints their summary (or --json).
// Exit statuses: pmoe/cli/tool.hpp (0 done, 2 bad options, config or infeasible data model).
#include <chrono>
#include <iostream>

#include "pmoe/cli/tool.hpp"
#include "run_trials.hpp"
#include "sim_options.hpp"
#include "summary.hpp"

int main(int argc, char** argv) {
  using namespace pmoe;
  return cli::RunMain("pmoe-sim", [&] {
    const std::optional<SimOptions> options = ParseSimOptions(argc, argv);
    if (!options) return static_cast<int>(cli::kDone);
    const auto start = std::chrono::steady_clock::now();
    const auto results = RunTrials(options->spec, options->trials, options->seed, options->threads);
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options->json)
      PrintJson(std::cout, *options, results, elapsed);
    else
      PrintSummary(std::cout, *options, results, elapsed);
    return static_cast<int>(cli::kDone);
  });
}
