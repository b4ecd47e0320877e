// Running a sweep: the work not yet held by the result file or journal, on all cores, each
// finished batch made durable in the journal and the HDF5 file rebuilt from it on a timer and at
// the end. Resume is the same call: what is held is skipped.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "pmoe/sweep/adaptive_work.hpp"
#include "pmoe/sweep/grid.hpp"
#include "pmoe/sweep/result_file.hpp"
#include "pmoe/sweep/sweep_config.hpp"
#include "pmoe/sweep/sweep_identity.hpp"
#include "pmoe/sweep/work_plan.hpp"

namespace pmoe {

// Everything fixed before anything runs. Building it validates the whole config.
struct SweepSetup {
  SweepConfig config;
  std::vector<Cell> cells;
  ShardSpec shard;
  RowSchema schema;  // the stored columns: core, class counts, the cells' metrics
  SweepIdentity identity;
  std::string merged_path;     // the whole sweep's file: --out, or results/NAME.h5
  std::string out_path;        // this run's file: merged_path, or ShardPath(merged_path, shard)
  std::string journal_path;    // out_path + ".journal"
  std::vector<WorkItem> work;  // this shard's items, most costly first
};

// Throws ConfigError for a bad config or shard; touches no file.
SweepSetup PrepareSweep(const std::string& config_path, const std::string& out,
                        const ShardSpec& shard);

SweepIdentity IdentityOf(const ResultContents& contents);

// The rows already finished for this sweep, from the result file and the journal, without
// changing either. Throws ConfigError saying what differs when either holds another sweep.
std::vector<TrialRow> HeldRows(const SweepSetup& setup);

struct RunOptions {
  int threads = 0;                 // 0: all cores
  bool force = false;              // start over when the file or journal holds another sweep
  double checkpoint_seconds = 30;  // HDF5 rebuilds while running
  std::string command_line;
  bool terminal = false;                                     // progress style
  bool progress = true;                                      // print progress on stderr at all
  std::function<bool()> interrupted = [] { return false; };  // Ctrl-C: stop taking new work
  // Test sets kept for the trials that share them (test_set_cache.hpp); 0 turns it off.
  size_t test_cache_bytes = 1000 * 1000 * 1000;  // --test-cache-mb 1000
};

struct RunReport {
  size_t shard_trials = 0;  // items in this shard
  size_t held = 0;          // already finished before this run
  size_t ran = 0;           // finished by this run
  bool interrupted = false;
  double wall_seconds = 0;   // the whole run
  double store_seconds = 0;  // journal appends and HDF5 rebuilds, on the writer thread
  size_t test_sets_kept = 0, test_set_reuses = 0;  // the test-set cache's work
  size_t test_cache_peak_bytes = 0;
  std::vector<SeriesOutcome> adaptive;  // an adaptive sweep's series, as the run left them
};

// Throws IoError when the journal or the result file cannot be written: the workers are stopped
// and joined first, and every trial acknowledged before the failure stays in the journal.
RunReport RunSweep(const SweepSetup& setup, const RunOptions& options, std::ostream& log);

ResultMeta MetaFor(const SweepSetup& setup, const std::string& command_line);

}  // namespace pmoe
