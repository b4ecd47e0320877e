// What a sweep would run and roughly what it would cost, as a value: `pmoe-sweep plan` renders
// it, tests read it. Most costly cells first (the order the runner uses, so that the cores stay
// busy to the end).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pmoe/sweep/run/pilot.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"

namespace pmoe {

struct PlannedCell {
  uint64_t id = 0;
  std::string label;
  double trial_seconds = 0;  // the static model's estimate of one trial
};

struct Plan {
  size_t cells = 0;
  long trials = 0;            // the grid's, or the most a source deciding round by round asks for
  bool by_rounds = false;     // the source decides its work round by round (adaptive, precision)
  std::string source, bound;  // by rounds: the source's description and how its bound is made
  double core_seconds = 0;    // static estimate of all trials on one core
  double most_core_seconds = 0;        // by rounds: the most the source may take (its bound)
  bool expected_core_seconds = false;  // core_seconds is a precision budget's expected cost
  double peak_trial_bytes = 0;
  size_t test_sets = 0;       // distinct test sets among the trials
  double test_set_bytes = 0;  // all of them
  size_t shard_trials = 0;    // this shard's planned trials
  size_t held = 0;            // trials the file or journal already hold
  size_t skipped = 0;         // planned trials held
  size_t to_run = 0;
  double to_run_seconds = 0;         // static estimate of those to run
  std::string growth;                // what the config adds to the file's sweep ("" none)
  std::vector<PlannedCell> by_cost;  // most costly first
  bool pilot_asked = false;
  std::optional<PilotEstimate> pilot;  // ran: the measured estimate
  unsigned cores = 1;                  // for the wall-clock estimates
};

// The plan of `setup`'s sweep; `pilot_trials` > 0 runs that many of the trials still to run
// (nothing written) on `threads` cores (0: all) and keeps their measured estimate.
Plan MakePlan(const SweepSetup& setup, size_t pilot_trials, int threads);

}  // namespace pmoe
