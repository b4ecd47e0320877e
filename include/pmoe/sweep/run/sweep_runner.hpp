// Running a sweep: the store (sweep_store.hpp) holds what is done, a work source
// (work_source.hpp) says what to run next from what is held, and an executor runs each round on
// all cores, every finished batch made durable in the journal and the HDF5 file rebuilt from it
// on a timer and at the end. Resume is the same call: what is held is skipped.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_source.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"

namespace pmoe {

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
  size_t shard_trials = 0;  // items of this shard's share (decided as it went: held + ran)
  size_t held = 0;          // already finished before this run
  size_t ran = 0;           // finished by this run
  bool interrupted = false;
  double wall_seconds = 0;   // the whole run
  double store_seconds = 0;  // journal appends and HDF5 rebuilds, on the writer thread
  size_t test_sets_kept = 0, test_set_reuses = 0;  // the test-set cache's work
  size_t test_cache_peak_bytes = 0;
  std::string summary;  // the source's table for the end of the run (adaptive: the series)
};

// The source a config asks for: its registered section's source (config_section.hpp: the
// adaptive search, precision targets), or its grid's share.
std::unique_ptr<WorkSource> MakeWorkSource(const SweepSetup& setup);

// Throws IoError when the journal or the result file cannot be written: the workers are stopped
// and joined first, and every trial acknowledged before the failure stays in the journal.
RunReport RunSweep(const SweepSetup& setup, const RunOptions& options, std::ostream& log);
// The same with a source of the caller's (tests; sources the config does not name).
RunReport RunSweep(const SweepSetup& setup, WorkSource& source, const RunOptions& options,
                   std::ostream& log);

}  // namespace pmoe
