// The pilot run behind `plan --pilot` (pilot.hpp).
#include "pmoe/sweep/run/pilot.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cmath>

#include "pmoe/trial/trial.hpp"

namespace pmoe {

std::vector<WorkItem> PilotItems(const std::vector<WorkItem>& items, size_t count) {
  if (count >= items.size()) return items;
  std::vector<WorkItem> chosen;
  if (count == 0) return chosen;
  if (count == 1) return {items[items.size() / 2]};
  // Positions i (W - 1) / (T - 1), rounded down: strictly increasing since T <= W.
  for (size_t i = 0; i < count; ++i) chosen.push_back(items[i * (items.size() - 1) / (count - 1)]);
  return chosen;
}

PilotEstimate EstimateFromTimes(const std::vector<double>& measured,
                                const std::vector<double>& modeled) {
  PilotEstimate e;
  e.trials = measured.size();
  for (size_t i = 0; i < measured.size(); ++i) {
    e.measured_seconds += measured[i];
    e.modeled_seconds += modeled[i];
  }
  e.ratio = e.modeled_seconds > 0 ? e.measured_seconds / e.modeled_seconds : NAN;
  e.ratio_error = NAN;
  const double t = static_cast<double>(e.trials);
  if (e.trials >= 2 && e.modeled_seconds > 0) {
    double squares = 0;
    for (size_t i = 0; i < measured.size(); ++i) {
      const double residual = measured[i] - e.ratio * modeled[i];
      squares += residual * residual;
    }
    e.ratio_error = std::sqrt(squares / (t * (t - 1))) / (e.modeled_seconds / t);
  }
  return e;
}

PilotEstimate RunPilot(const SweepSetup& setup, const std::vector<WorkItem>& items, size_t count,
                       int threads) {
  const std::vector<WorkItem> chosen = PilotItems(items, count);
  std::vector<double> measured(chosen.size()), modeled(chosen.size());
  const auto start = std::chrono::steady_clock::now();
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    // One trial per task, the costly ones first, as a run takes them.
    tbb::parallel_for(
        size_t{0}, chosen.size(),
        [&](size_t i) {
          const TrialSpec& spec = setup.cells[chosen[i].cell].spec;
          measured[i] = RunTrial(spec, chosen[i].trial, setup.config.seed).wall_ms / 1e3;
          modeled[i] = chosen[i].cost;
        },
        tbb::simple_partitioner());
  });
  PilotEstimate e = EstimateFromTimes(measured, modeled);
  e.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

}  // namespace pmoe
