// precision_sim: how often a precision target decides, on synthetic outcomes whose true value sits
// exactly at the threshold (docs/results/precision-targets.md). Not a test: the figures behind it.
//   precision_sim [scenario] [runs] [budget] [looks] [start] [alpha] [naive 0/1] [bootstrap]
//                 [allocation even/cost]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "pmoe/precision/precision_simulation.hpp"

int main(int argc, char** argv) {
  try {
    const std::string scenario = argc > 1 ? argv[1] : "lognormal-slope";
    const int runs = argc > 2 ? std::atoi(argv[2]) : 1000;
    pmoe::PrecisionSettings s;
    s.budget = argc > 3 ? std::atoi(argv[3]) : 640;
    s.looks = argc > 4 ? std::atoi(argv[4]) : 6;
    s.start = argc > 5 ? std::atoi(argv[5]) : 4;
    s.alpha = argc > 6 ? std::atof(argv[6]) : 0.05;
    s.naive = argc > 7 && std::atoi(argv[7]) != 0;
    s.bootstrap = argc > 8 ? std::atoi(argv[8]) : 1000;
    s.cost_aware = argc > 9 && std::string(argv[9]) == "cost";
    if (runs < 1) throw std::invalid_argument("runs must be at least 1");
    const pmoe::SimulationTally t =
        pmoe::SimulateAtThreshold(pmoe::ParseScenario(scenario), s, runs, 20261126);
    std::printf("scenario %s, %s rule, alpha %.3g, budget %d, looks %d, start %d, bootstrap %d\n",
                scenario.c_str(), s.naive ? "naive" : "spending", s.alpha, s.budget, s.looks,
                s.start, s.bootstrap);
    std::printf(
        "runs %d: above %d (%.4f), below %d (%.4f), wrong %.4f, undecided %d, "
        "mean trials %.1f, mean cost %.1f\n",
        t.runs, t.above, double(t.above) / t.runs, t.below, double(t.below) / t.runs, t.Wrong(),
        t.undecided, t.mean_trials, t.mean_cost);
    if (scenario == "costly-slope")  // its truth lies above the threshold: above is right
      std::printf("(not a null: the truth is above, so \"wrong\" counts the decisions)\n");
    std::printf("wrong decisions by look:");
    for (size_t k = 0; k < t.wrong_at.size(); ++k) std::printf(" %d", t.wrong_at[k]);
    std::printf("\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "precision_sim: %s\n", e.what());
    return 2;
  }
  return 0;
}
