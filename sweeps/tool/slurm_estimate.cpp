// What one array task is asked for. A grid task runs its share once; a look chain's task runs
// one look's share, so its limits are those of the largest share of any look (every look's
// array is submitted with the same script), and the CPU-hours are those of all looks.
#include "slurm_estimate.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/precision/look_shards.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/run/pilot.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"
#include "slurm_looks.hpp"

namespace pmoe {
namespace {

std::string Format(const char* format, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

// The work a task gets, by the static model.
struct TaskWork {
  double slowest_seconds = 0;   // core-seconds of the costliest task
  double test_set_bytes = 0;    // the test sets it holds
  double total_seconds = 0;     // all tasks (all looks)
  size_t trials = 0;            // all tasks: what the merge reads
  std::vector<WorkItem> pilot;  // what the pilot draws from
  std::string what;             // "the slowest shard" or "the largest share of a look"
};

TaskWork GridWork(const SweepSetup& setup, int shards) {
  TaskWork w;
  w.pilot = PlanWork(setup.cells, setup.config.trials);
  for (int s = 1; s <= shards; ++s) {
    double cost = 0;
    for (const WorkItem& item : ShardOf(w.pilot, s, shards)) cost += item.cost;
    w.slowest_seconds = std::max(w.slowest_seconds, cost);
    w.total_seconds += cost;
  }
  std::map<std::pair<std::string, int>, double> test_sets;
  for (const Cell& c : setup.cells)
    test_sets[{CanonicalKey(c.spec, "data."), c.spec.N_test}] = EstimateTestSetBytes(c.spec);
  for (const auto& entry : test_sets) w.test_set_bytes += entry.second * setup.config.trials;
  w.trials = w.pilot.size();
  w.what = "the slowest shard";
  return w;
}

// The rows already held (a grown file) make the current look's pairs exact.
TaskWork LookWork(const SweepSetup& setup, int shards) {
  StoredRows held;
  held.Insert(HeldRows(setup));
  const LookShardEstimate e = EstimateLookShards(setup, held, shards);
  TaskWork w;
  w.slowest_seconds = e.slowest_share_seconds;
  w.total_seconds = e.total_core_seconds;
  w.test_set_bytes = e.test_set_bytes;
  for (size_t n : e.look_trials) w.trials += n;
  w.trials += held.size();
  w.pilot = CurrentLook(setup, held);
  w.what = "the largest share of a look (" + std::to_string(e.largest_share) + " trials; " +
           std::to_string(e.look_trials.size()) + " looks at most, " +
           Format("%.2f CPU-hours in all by the static model)", e.total_core_seconds / 3600);
  return w;
}

// How the static model's seconds compare with this machine's: without a pilot, as they are;
// with one, times its measured ratio, and the memory it used.
struct Calibration {
  double ratio = 1;
  double rss_mb = 0;  // measured by the pilot (0: none)
  std::string how;    // for the notes
};

Calibration Calibrate(const SweepSetup& setup, const TaskWork& work, const EstimateInput& in) {
  Calibration c;
  c.how =
      "the static model (no pilot; early stopping can make it wrong many times "
      "over: --pilot T measures)";
  if (in.pilot <= 0 || work.pilot.empty()) return c;
  const PilotEstimate pilot = RunPilot(setup, work.pilot, in.pilot, in.cpus);
  c.ratio = pilot.ratio;
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  c.rss_mb = usage.ru_maxrss / 1024.0;  // kilobytes on Linux
  c.how = Format("a pilot of %.0f trials on %.0f thread(s) here, %.3g times the static model",
                 static_cast<double>(pilot.trials), in.cpus, pilot.ratio);
  return c;
}

// The memory of the task's threads each running its costliest trial, and the process's own.
double StaticMegabytes(const SweepSetup& setup, const EstimateInput& in) {
  double peak_trial = 0;
  for (const Cell& c : setup.cells) peak_trial = std::max(peak_trial, EstimateTrialBytes(c.spec));
  return (in.cpus * peak_trial) / 1e6 + 150;
}

// A task's time and memory (the user's when given), and the merge job's.
void SetLimits(const EstimateInput& in, double shard_minutes, double base_mb, size_t trials,
               SlurmJob& job) {
  job.time_minutes = in.time_minutes > 0
                         ? in.time_minutes
                         : std::max(5, static_cast<int>(std::ceil(shard_minutes * in.margin + 3)));
  job.mem_mb =
      in.mem_mb > 0
          ? in.mem_mb
          : static_cast<int>(std::ceil((base_mb + job.test_cache_mb) * in.margin / 100) * 100);
  job.margin = in.margin;
  job.base_mb = static_cast<int>(std::ceil(base_mb));
  job.fixed_time = in.time_minutes > 0;
  job.fixed_mem = in.mem_mb > 0;
  job.merge_mem_mb =
      static_cast<int>(std::ceil((500 + static_cast<double>(trials) * 2e-3) / 100) * 100);
  job.merge_time_minutes =
      std::max(10, static_cast<int>(std::ceil(static_cast<double>(trials) / 2e5)));
}

}  // namespace

void EstimateJob(const SweepSetup& setup, const EstimateInput& in, SlurmJob& job) {
  const bool looks = PrecisionOf(setup.config) != nullptr;  // a look chain over the array
  const TaskWork work = looks ? LookWork(setup, in.shards) : GridWork(setup, in.shards);
  job.test_cache_mb = static_cast<int>(std::min(1000.0, std::ceil(work.test_set_bytes / 1e6)));
  const Calibration calibration = Calibrate(setup, work, in);
  const double shard_minutes = work.slowest_seconds * calibration.ratio / in.cpus / 60;
  const double static_mb = StaticMegabytes(setup, in);
  SetLimits(in, shard_minutes, std::max(static_mb, calibration.rss_mb), work.trials, job);
  job.time_ratio = calibration.ratio;
  if (in.time_minutes > 0)
    job.notes.push_back("time: --time " + std::to_string(in.time_minutes));
  else
    job.notes.push_back("time: " + work.what +
                        Format(" ~%.1f min on %.0f CPU(s) by ", shard_minutes, in.cpus) +
                        calibration.how + Format("; x margin %.3g, + 3 min", in.margin));
  if (looks)
    job.notes.push_back(Format("CPU-hours: ~%.2f over every look and shard",
                               work.total_seconds * calibration.ratio / 3600));
  if (in.mem_mb > 0)
    job.notes.push_back("memory: --mem " + std::to_string(in.mem_mb));
  else
    job.notes.push_back(Format("memory: (max(%.0f MB static, %.0f MB measured) + %.0f MB ",
                               static_mb, calibration.rss_mb, job.test_cache_mb) +
                        (looks ? "test sets held at most)" : "test-set cache)") +
                        Format(" x margin %.3g", in.margin));
  if (looks) {
    // The limits above are the bound over every look; each look's array asks for its own.
    job.first_limits = LookLimits(job, work.pilot, setup.cells);
    job.notes.push_back(
        "looks: each look's array asks for what its largest share needs (the "
        "decide job computes it); the first: " +
        (job.first_limits.empty() ? "the limits above" : job.first_limits.substr(1)));
  }
}

void PlanLookChain(const std::string& config, const std::string& out, int shards,
                   std::ostream* text, JsonWriter* w) {
  const SweepSetup whole = PrepareSweep(config, out, {});
  StoredRows held;
  held.Insert(HeldRows(whole));
  const LookShardEstimate e = EstimateLookShards(whole, held, shards);
  if (w != nullptr) {
    w->Key("look_chain")
        .BeginObject()
        .Field("shards", shards)
        .Field("looks", e.look_trials.size())
        .Field("largest_share", e.largest_share)
        .Field("slowest_share_core_seconds", e.slowest_share_seconds)
        .Field("total_core_seconds", e.total_core_seconds)
        .Field("test_sets", e.test_sets)
        .Field("test_set_bytes", e.test_set_bytes)
        .EndObject();
    return;
  }
  *text << Format(
               "  on Slurm (slurm --shards %.0f: a look chain, each look's trials over every "
               "shard): %.0f looks at most, ",
               shards, static_cast<double>(e.look_trials.size()))
        << Format("a task's largest share %.0f trials, ~%.3g core-minutes by the static model, ",
                  static_cast<double>(e.largest_share), e.slowest_share_seconds / 60)
        << Format("%.0f MB of test sets held; %.3g CPU-hours in all\n", e.test_set_bytes / 1e6,
                  e.total_core_seconds / 3600);
}

}  // namespace pmoe
