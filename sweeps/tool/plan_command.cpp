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
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/pilot.hpp"
#include "pmoe/sweep/run/plan.hpp"
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

namespace {

void RenderPlanJson(const PlanOptions& o, const SweepSetup& setup, const Plan& plan,
                    std::ostream& out) {
  const SweepConfig& config = setup.config;
  JsonWriter w(out);
  w.BeginObject().Field("name", config.name).Field("config", config.path);
  w.Field("seed", static_cast<unsigned long long>(config.seed)).Field("cells", plan.cells);
  w.Field("trials_per_cell", config.trials).Field("trials", plan.trials);
  w.Field("estimated_core_seconds", plan.core_seconds)
      .Field("peak_trial_bytes", plan.peak_trial_bytes);
  w.Field("test_sets", plan.test_sets).Field("test_set_bytes", plan.test_set_bytes);
  w.Field("output", setup.out_path).Field("shard", setup.shard.Text());
  w.Field("shard_trials", plan.shard_trials).Field("would_skip", plan.skipped);
  w.Field("grows", plan.growth);
  if (PrecisionOf(config) && setup.shard.count > 0)
    PlanLookChain(o.path, o.output, setup.shard.count, nullptr, &w);
  if (plan.pilot) {
    const PilotEstimate& e = *plan.pilot;
    w.Key("pilot")
        .BeginObject()
        .Field("trials", e.trials)
        .Field("measured_seconds", e.measured_seconds)
        .Field("modeled_seconds", e.modeled_seconds)
        .Field("ratio", e.ratio)
        .Field("ratio_error", e.ratio_error)
        .Field("to_run_core_seconds", plan.to_run_seconds * e.ratio)
        .Field("wall_seconds", e.wall_seconds)
        .EndObject();
  }
  w.Key("cell_list").BeginArray();
  for (const PlannedCell& c : plan.by_cost)
    w.BeginObject()
        .Field("cell_id", static_cast<unsigned long long>(c.id))
        .Field("label", c.label)
        .Field("estimated_trial_seconds", c.trial_seconds)
        .EndObject();
  w.EndArray().EndObject();
  out << "\n";
}

// The sweep, its axes, its trials and the static estimate.
void RenderPlanHead(const PlanOptions& o, const SweepSetup& setup, const Plan& plan,
                    std::ostream& out) {
  const SweepConfig& config = setup.config;
  out << "sweep " << config.name << " (" << config.path << "), seed " << config.seed << "\n";
  for (const Axis& axis : config.axes) {
    out << "  axis " << axis.name << (axis.kinds.empty() ? "" : " (" + axis.kinds[0] + " only)")
        << ": ";
    for (size_t i = 0; i < axis.values.size(); ++i) out << (i ? ", " : "") << axis.values[i];
    out << " (" << axis.values.size() << " values" << (axis.note.empty() ? "" : "; " + axis.note)
        << ")\n";
  }
  if (plan.by_rounds)
    out << "  " << plan.source << " (the grid: " << plan.cells << " cells): " << plan.bound
        << "; at most " << plan.trials << " trials in all"
        << (plan.expected_core_seconds
                ? " (at most " + Duration(plan.most_core_seconds) + " of one core)"
                : "")
        << "\n";
  else
    out << "  " << plan.cells << " cells x " << config.trials << " trials = " << plan.trials
        << " trials\n";
  char line[256];
  std::snprintf(line, sizeof line,
                "  static estimate (fixed rates; early-stopping trials at a third of their epoch "
                "cap): %s of one core, ~%s on %u cores; peak memory per trial %.1f MB\n",
                Duration(plan.core_seconds).c_str(),
                Duration(plan.core_seconds / plan.cores).c_str(), plan.cores,
                plan.peak_trial_bytes / 1e6);
  out << line;
  std::snprintf(line, sizeof line,
                "  %zu distinct test sets among %ld trials, %.0f MB in all: a run keeps them up "
                "to --test-cache-mb (default 1000)\n",
                plan.test_sets, plan.trials, plan.test_set_bytes / 1e6);
  out << line;
  // A precision config on Slurm runs as a look chain: each task gets a share of every look.
  if (PrecisionOf(config) && setup.shard.count > 0)
    PlanLookChain(o.path, o.output, setup.shard.count, &out, nullptr);
}

// What the output holds, the pilot's measurement, the costliest cells.
void RenderPlanTail(const SweepSetup& setup, const Plan& plan, bool all, std::ostream& out) {
  const ShardSpec& shard = setup.shard;
  if (!plan.growth.empty())
    out << "  grows the sweep in " << setup.out_path << ": " << plan.growth
        << "; the trials it holds are kept\n";
  if (plan.by_rounds)
    out << "  output " << setup.out_path << (shard.count ? " (shard " + shard.Text() + ")" : "")
        << ": " << plan.held << " trials already done; a run chooses the rest round by round\n";
  else
    out << "  output " << setup.out_path
        << (shard.count
                ? " (shard " + shard.Text() + ", " + std::to_string(plan.shard_trials) + " trials)"
                : "")
        << ": " << plan.skipped << " trials already done would be skipped, " << plan.to_run
        << " to run\n";
  char line[256];
  if (plan.pilot) {
    const PilotEstimate& e = *plan.pilot;
    const double seconds = plan.to_run_seconds * e.ratio, spread = 2 * e.ratio_error / e.ratio;
    std::snprintf(
        line, sizeof line,
        "  pilot: %zu of them run in %.1f s, %.3g times what the static model said for "
        "them%s: the %zu to run would take ~%s of one core, ~%s on %u cores\n",
        e.trials, e.wall_seconds, e.ratio,
        std::isfinite(spread)
            ? (" (±" + std::to_string(std::lround(100 * spread)) + " %, two standard errors)")
                  .c_str()
            : "",
        plan.to_run, Duration(seconds).c_str(), Duration(seconds / plan.cores).c_str(), plan.cores);
    out << line;
  } else if (plan.pilot_asked) {
    out << "  pilot: nothing left to run\n";
  }
  out << "  cells, most costly first (estimated seconds per trial):\n";
  const size_t shown = all ? plan.by_cost.size() : std::min<size_t>(plan.by_cost.size(), 20);
  for (size_t i = 0; i < shown; ++i) {
    std::snprintf(line, sizeof line, "    %8.3f  %s\n", plan.by_cost[i].trial_seconds,
                  plan.by_cost[i].label.c_str());
    out << line;
  }
  if (shown < plan.by_cost.size())
    out << "    ... " << plan.by_cost.size() - shown << " more (--all)\n";
}

}  // namespace

// Parse, compute (MakePlan: plan.hpp), render.
int RunPlanCommand(const cli::Parsed& args, const std::string& /*command_line*/) {
  const PlanOptions o = ParsePlan(args);
  const SweepSetup setup = PrepareSweep(o.path, o.output, o.shard);
  const Plan plan = MakePlan(setup, o.pilot, o.threads);
  if (o.json) {
    RenderPlanJson(o, setup, plan, std::cout);
  } else {
    RenderPlanHead(o, setup, plan, std::cout);
    RenderPlanTail(setup, plan, o.all, std::cout);
  }
  return 0;
}

}  // namespace pmoe
