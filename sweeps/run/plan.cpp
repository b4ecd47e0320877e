// The plan of a sweep (plan.hpp): setup, held trials, the static cost model, a source's bound,
// test sets, and the pilot's measurement.
#include "pmoe/sweep/run/plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <utility>

#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"

namespace pmoe {
namespace {

// Cells with the same data parameters and N_test share their trials' test sets: the distinct
// ones and their bytes, bounded by what a source deciding round by round may run.
void PlanTestSets(const SweepSetup& setup, const WorkSource::Bound& most, Plan& plan) {
  std::map<std::pair<std::string, int>, double> test_sets;
  for (const Cell& c : setup.cells)
    test_sets[{CanonicalKey(c.spec, "data."), c.spec.N_test}] = EstimateTestSetBytes(c.spec);
  const int trials = setup.config.trials;
  double largest_set = 0;
  for (const auto& entry : test_sets) {
    plan.test_set_bytes += entry.second * trials;
    largest_set = std::max(largest_set, entry.second);
  }
  plan.test_sets = test_sets.size() * trials;
  // A source deciding round by round runs at most its bound's trials, one test set each at most
  // (its config.trials is only the most one cell could get).
  if (plan.by_rounds && most.trials < plan.test_sets) {
    plan.test_sets = most.trials;
    plan.test_set_bytes =
        std::min(plan.test_set_bytes, largest_set * static_cast<double>(most.trials));
  }
  // A precision budget spread over its cells: each data's cells share trial t's test set, so a
  // run holds about trials-per-cell sets per data (issue 41: "9310 MB" for 169 MB held).
  if (plan.by_rounds && most.trials_per_cell > 0) {
    const double per_data = std::min<double>(trials, std::ceil(most.trials_per_cell));
    plan.test_sets = 0;
    plan.test_set_bytes = 0;
    for (const auto& entry : test_sets) {
      plan.test_sets += static_cast<size_t>(per_data);
      plan.test_set_bytes += entry.second * per_data;
    }
  }
}

}  // namespace

Plan MakePlan(const SweepSetup& setup, size_t pilot_trials, int threads) {
  Plan plan;
  const std::vector<Cell>& cells = setup.cells;
  plan.cells = cells.size();
  // What a run would skip: the trials of this shard that the file or journal already hold.
  std::set<std::pair<uint64_t, int>> held;
  const HeldSweep found = ReadHeld(setup);  // growth: what the config adds to the file's sweep
  for (const TrialRow& r : found.rows) held.insert({r.cell_id, r.result.trial});
  plan.held = held.size();
  plan.growth = found.growth;
  std::vector<WorkItem> to_run;
  for (const WorkItem& item : setup.work)
    if (!held.count({cells[item.cell].id, item.trial})) {
      to_run.push_back(item);
      plan.to_run_seconds += item.cost;
    }
  plan.shard_trials = setup.work.size();
  plan.to_run = to_run.size();
  plan.skipped = setup.work.size() - to_run.size();
  for (const Cell& c : cells) {
    const double s = EstimateTrialSeconds(c.spec);
    plan.by_cost.push_back({c.id, c.label, s});
    plan.core_seconds += s * setup.config.trials;
    plan.peak_trial_bytes = std::max(plan.peak_trial_bytes, EstimateTrialBytes(c.spec));
  }
  std::stable_sort(
      plan.by_cost.begin(), plan.by_cost.end(),
      [](const PlannedCell& a, const PlannedCell& b) { return a.trial_seconds > b.trial_seconds; });
  // A source that decides its work round by round says the most it can ask for; the estimate
  // takes that bound.
  const std::unique_ptr<WorkSource> source = MakeWorkSource(setup);
  const WorkSource::Bound most = source->MostWork();
  plan.by_rounds = !source->Planned().has_value();
  plan.source = source->Describe();
  plan.bound = most.how;
  if (plan.by_rounds) plan.core_seconds = plan.most_core_seconds = most.core_seconds;
  if (plan.by_rounds && most.expected_core_seconds > 0) {
    plan.core_seconds = most.expected_core_seconds;
    plan.expected_core_seconds = true;
  }
  plan.trials = plan.by_rounds ? static_cast<long>(most.trials)
                               : static_cast<long>(cells.size()) * setup.config.trials;
  PlanTestSets(setup, most, plan);
  plan.cores = threads > 0 ? static_cast<unsigned>(threads)
                           : std::max(1u, std::thread::hardware_concurrency());
  // Last, so that a bad config is refused before any trial runs.
  plan.pilot_asked = pilot_trials > 0;
  if (pilot_trials > 0 && !to_run.empty())
    plan.pilot = RunPilot(setup, to_run, pilot_trials, threads);
  return plan;
}

}  // namespace pmoe
