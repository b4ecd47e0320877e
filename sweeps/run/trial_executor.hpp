// Runs items on TBB workers while this thread, the only writer, hands finished rows to the store
// (durable before they count), draws progress, checkpoints the result file on a timer and
// watches for Ctrl-C. Workers only run trials, so no file is ever written concurrently.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <ostream>
#include <vector>

#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"
#include "pmoe/trial/test_set_cache.hpp"

namespace pmoe {

class TrialExecutor {
 public:
  // `checkpoint` rebuilds the result file; it is called every options.checkpoint_seconds.
  TrialExecutor(const SweepSetup& setup, const RunOptions& options, SweepStore& store,
                std::function<void()> checkpoint, std::ostream& log);

  // Runs `items` in their order and returns once each is stored, or once the run was
  // interrupted and the trials in flight are stored. `bar`: draw a progress bar (over `held`
  // trials done before). Rethrows what the store threw, after stopping and joining the workers.
  void Run(const std::vector<WorkItem>& items, bool bar, size_t held);

  size_t ran() const { return ran_; }  // rows stored by this executor
  bool interrupted() const { return stop_; }
  TestSetCache::Counts cache_counts() const { return test_cache_.counts(); }

 private:
  void ExpectTestSets(const std::vector<WorkItem>& items);

  const SweepSetup& setup_;
  const RunOptions& options_;
  SweepStore& store_;
  std::function<void()> checkpoint_;
  std::ostream& log_;
  TestSetCache test_cache_;
  std::atomic<bool> stop_{false};
  size_t ran_ = 0;
  std::chrono::steady_clock::time_point last_checkpoint_;
};

}  // namespace pmoe
