// pmoe-sim: runs T trials of one cell on all cores and prints their summary (or --json).
// Exit status: 0 done, 2 bad options, config or infeasible data model.
#include <chrono>
#include <iostream>

#include "pmoe/core/errors.hpp"
#include "run_trials.hpp"
#include "sim_options.hpp"
#include "summary.hpp"

int main(int argc, char** argv) {
  using namespace pmoe;
  std::optional<SimOptions> options;
  try {
    options = ParseSimOptions(argc, argv);
  } catch (const ConfigError& e) {
    std::cerr << "pmoe-sim: error: " << e.what() << "\n";
    return 2;
  } catch (const InfeasibleError& e) {
    std::cerr << "pmoe-sim: error: " << e.what() << "\n";
    return 2;
  } catch (const SchemaError& e) {  // unreadable image files
    std::cerr << "pmoe-sim: error: " << e.what() << "\n";
    return 2;
  }
  if (!options) return 0;
  const auto start = std::chrono::steady_clock::now();
  const auto results = RunTrials(options->spec, options->trials, options->seed, options->threads);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options->json) PrintJson(std::cout, *options, results, elapsed);
  else PrintSummary(std::cout, *options, results, elapsed);
  return 0;
}
