// The plan: what a sweep would run and roughly what it would cost, most costly cells first (the
// order the runner uses, so that the cores stay busy to the end).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/pilot.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "slurm_estimate.hpp"

namespace pmoe {
namespace {

std::string Duration(double seconds) {
  char buf[64];
  if (seconds < 120)
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 7200)
    std::snprintf(buf, sizeof buf, "%.1f min", seconds / 60);
  else
    std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  return buf;
}

struct PlanOptions {
  std::string path, output;
  ShardSpec shard;
  bool json = false, all = false;
  size_t pilot = 0;
  int threads = 0;
};

PlanOptions ParsePlan(const cli::Parsed& args) {
  PlanOptions o;
  o.path = args.operands.at(0);
  for (const auto& [name, value] : args.options) {
    const std::string a = "--" + name;
    if (name == "json")
      o.json = true;
    else if (name == "all")
      o.all = true;
    else if (name == "out")
      o.output = RequireOutPath(value);
    else if (name == "shard")
      o.shard = ResolveShard(value);
    else if (name == "pilot")
      o.pilot = static_cast<size_t>(ParseIntegerInRange("command line", a, value, 1, 1000000));
    else if (name == "threads")
      o.threads = static_cast<int>(ParseIntegerInRange("command line", a, value, 1, kMaxThreads));
  }
  cli::RequireConfigFile(o.path);
  return o;
}

}  // namespace

cli::Command PlanCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "plan";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "the cells, trials, estimated cost and memory, and what a run would skip";
  c.description =
      "Nothing is written. The estimate is the static cost model's (sweeps/run/work_plan.cpp); "
      "--pilot T runs T of the trials still to run (on N cores) and scales the estimate by "
      "what they took.";
  c.options = {
      {"out", "F", "the result file a run would write (default results/NAME.h5)", {}, ""},
      {"shard", "I/K", "plan the I-th of K parts", {}, ""},
      {"all", "", "list every cell (default: the 20 costliest)", {}, ""},
      {"json", "", "print the plan as one JSON object", {}, ""},
      {"pilot",
       "T",
       "run T trials (nothing is written) and scale the estimate by their time",
       {},
       ""},
      {"threads", "N", "cores the pilot and the wall-clock estimate use (default: all)", {}, ""},
  };
  return c;
}

int RunPlanCommand(const cli::Parsed& args, const std::string& command_line) {
  std::ostream& out = std::cout;
  const PlanOptions o = ParsePlan(args);
  const std::string &path = o.path, &output = o.output;
  const ShardSpec& shard = o.shard;
  const bool json = o.json, all = o.all;
  const size_t pilot = o.pilot;
  const int threads = o.threads;
  // Compute: the setup, what a run would skip, the static and piloted estimates.
  const SweepSetup setup = PrepareSweep(path, output, shard);
  const SweepConfig& config = setup.config;
  const std::vector<Cell>& cells = setup.cells;
  // What a run would skip: the trials of this shard that the file or journal already hold.
  std::set<std::pair<uint64_t, int>> held;
  const HeldSweep found = ReadHeld(setup);  // growth: what the config adds to the file's sweep
  for (const TrialRow& r : found.rows) held.insert({r.cell_id, r.result.trial});
  std::vector<WorkItem> to_run;
  double to_run_seconds = 0;  // by the static model
  for (const WorkItem& item : setup.work)
    if (!held.count({cells[item.cell].id, item.trial})) {
      to_run.push_back(item);
      to_run_seconds += item.cost;
    }
  const size_t skipped = setup.work.size() - to_run.size();
  std::vector<std::pair<double, const Cell*>> by_cost;
  double total_seconds = 0, peak_bytes = 0;
  // Cells with the same data parameters and N_test share their trials' test sets.
  std::map<std::pair<std::string, int>, double> test_sets;
  for (const Cell& c : cells) {
    const double s = EstimateTrialSeconds(c.spec);
    by_cost.push_back({s, &c});
    total_seconds += s * config.trials;
    peak_bytes = std::max(peak_bytes, EstimateTrialBytes(c.spec));
    test_sets[{CanonicalKey(c.spec, "data."), c.spec.N_test}] = EstimateTestSetBytes(c.spec);
  }
  // A source that decides its work round by round (adaptive search, precision targets) says the
  // most it can ask for; the estimate takes that bound.
  const std::unique_ptr<WorkSource> source = MakeWorkSource(setup);
  const WorkSource::Bound most = source->MostWork();
  const bool by_rounds = !source->Planned().has_value();
  if (by_rounds) total_seconds = most.core_seconds;
  double test_set_bytes = 0, largest_set = 0;
  for (const auto& entry : test_sets) {
    test_set_bytes += entry.second * config.trials;
    largest_set = std::max(largest_set, entry.second);
  }
  size_t distinct_test_sets = test_sets.size() * config.trials;
  // A source deciding round by round runs at most its bound's trials, one test set each at most
  // (its config.trials is only the most one cell could get).
  if (by_rounds && most.trials < distinct_test_sets) {
    distinct_test_sets = most.trials;
    test_set_bytes = std::min(test_set_bytes, largest_set * static_cast<double>(most.trials));
  }
  // A precision budget spread over its cells: each data's cells share trial t's test set, so a
  // run holds about trials-per-cell sets per data (issue 41: "9310 MB" for 169 MB held).
  if (by_rounds && most.trials_per_cell > 0) {
    const double per_data = std::min<double>(config.trials, std::ceil(most.trials_per_cell));
    distinct_test_sets = 0;
    test_set_bytes = 0;
    for (const auto& entry : test_sets) {
      distinct_test_sets += static_cast<size_t>(per_data);
      test_set_bytes += entry.second * per_data;
    }
  }
  if (by_rounds && most.expected_core_seconds > 0) total_seconds = most.expected_core_seconds;
  std::stable_sort(by_cost.begin(), by_cost.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  const unsigned cores = threads > 0 ? static_cast<unsigned>(threads)
                                     : std::max(1u, std::thread::hardware_concurrency());
  const long trials =
      by_rounds ? static_cast<long>(most.trials) : static_cast<long>(cells.size()) * config.trials;
  (void)command_line;
  // Checked after everything above, so that a bad config is refused before any trial runs.
  const bool piloted = pilot > 0 && !to_run.empty();
  const PilotEstimate estimate =
      piloted ? RunPilot(setup, to_run, pilot, threads) : PilotEstimate{};

  // Render: JSON or text.
  if (json) {
    JsonWriter w(out);
    w.BeginObject().Field("name", config.name).Field("config", config.path);
    w.Field("seed", static_cast<unsigned long long>(config.seed)).Field("cells", cells.size());
    w.Field("trials_per_cell", config.trials).Field("trials", trials);
    w.Field("estimated_core_seconds", total_seconds).Field("peak_trial_bytes", peak_bytes);
    w.Field("test_sets", distinct_test_sets).Field("test_set_bytes", test_set_bytes);
    w.Field("output", setup.out_path).Field("shard", shard.Text());
    w.Field("shard_trials", setup.work.size()).Field("would_skip", skipped);
    w.Field("grows", found.growth);
    if (config.precision && shard.count > 0) PlanLookChain(path, output, shard.count, nullptr, &w);
    if (piloted) {
      w.Key("pilot")
          .BeginObject()
          .Field("trials", estimate.trials)
          .Field("measured_seconds", estimate.measured_seconds)
          .Field("modeled_seconds", estimate.modeled_seconds)
          .Field("ratio", estimate.ratio)
          .Field("ratio_error", estimate.ratio_error)
          .Field("to_run_core_seconds", to_run_seconds * estimate.ratio)
          .Field("wall_seconds", estimate.wall_seconds)
          .EndObject();
    }
    w.Key("cell_list").BeginArray();
    for (const auto& [s, c] : by_cost)
      w.BeginObject()
          .Field("cell_id", static_cast<unsigned long long>(c->id))
          .Field("label", c->label)
          .Field("estimated_trial_seconds", s)
          .EndObject();
    w.EndArray().EndObject();
    out << "\n";
    return 0;
  }
  out << "sweep " << config.name << " (" << config.path << "), seed " << config.seed << "\n";
  for (const Axis& axis : config.axes) {
    out << "  axis " << axis.name << (axis.kinds.empty() ? "" : " (" + axis.kinds[0] + " only)")
        << ": ";
    for (size_t i = 0; i < axis.values.size(); ++i) out << (i ? ", " : "") << axis.values[i];
    out << " (" << axis.values.size() << " values" << (axis.note.empty() ? "" : "; " + axis.note)
        << ")\n";
  }
  if (by_rounds) {
    out << "  " << source->Describe() << " (the grid: " << cells.size() << " cells): " << most.how
        << "; at most " << most.trials << " trials in all"
        << (most.expected_core_seconds > 0
                ? " (at most " + Duration(most.core_seconds) + " of one core)"
                : "")
        << "\n";
  } else {
    out << "  " << cells.size() << " cells x " << config.trials << " trials = " << trials
        << " trials\n";
  }
  char line[256];
  std::snprintf(line, sizeof line,
                "  static estimate (fixed rates; early-stopping trials at a third of their epoch "
                "cap): %s of one core, ~%s on %u cores; peak memory per trial %.1f MB\n",
                Duration(total_seconds).c_str(), Duration(total_seconds / cores).c_str(), cores,
                peak_bytes / 1e6);
  out << line;
  std::snprintf(line, sizeof line,
                "  %zu distinct test sets among %ld trials, %.0f MB in all: a run keeps them up "
                "to --test-cache-mb (default 1000)\n",
                distinct_test_sets, trials, test_set_bytes / 1e6);
  out << line;
  // A precision config on Slurm runs as a look chain: each task gets a share of every look.
  if (config.precision && shard.count > 0) PlanLookChain(path, output, shard.count, &out, nullptr);
  if (!found.growth.empty())
    out << "  grows the sweep in " << setup.out_path << ": " << found.growth
        << "; the trials it holds are kept\n";
  if (by_rounds)
    out << "  output " << setup.out_path << (shard.count ? " (shard " + shard.Text() + ")" : "")
        << ": " << held.size() << " trials already done; a run chooses the rest round by round\n";
  else
    out << "  output " << setup.out_path
        << (shard.count
                ? " (shard " + shard.Text() + ", " + std::to_string(setup.work.size()) + " trials)"
                : "")
        << ": " << skipped << " trials already done would be skipped, " << to_run.size()
        << " to run\n";
  if (piloted) {
    const double seconds = to_run_seconds * estimate.ratio;
    const double spread = 2 * estimate.ratio_error / estimate.ratio;
    std::snprintf(
        line, sizeof line,
        "  pilot: %zu of them run in %.1f s, %.3g times what the static model said for "
        "them%s: the %zu to run would take ~%s of one core, ~%s on %u cores\n",
        estimate.trials, estimate.wall_seconds, estimate.ratio,
        std::isfinite(spread)
            ? (" (±" + std::to_string(std::lround(100 * spread)) + " %, two standard errors)")
                  .c_str()
            : "",
        to_run.size(), Duration(seconds).c_str(), Duration(seconds / cores).c_str(), cores);
    out << line;
  } else if (pilot > 0) {
    out << "  pilot: nothing left to run\n";
  }
  out << "  cells, most costly first (estimated seconds per trial):\n";
  const size_t shown = all ? by_cost.size() : std::min<size_t>(by_cost.size(), 20);
  for (size_t i = 0; i < shown; ++i) {
    std::snprintf(line, sizeof line, "    %8.3f  %s\n", by_cost[i].first,
                  by_cost[i].second->label.c_str());
    out << line;
  }
  if (shown < by_cost.size()) out << "    ... " << by_cost.size() - shown << " more (--all)\n";
  return 0;
}

}  // namespace pmoe
