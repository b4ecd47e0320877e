#include "trial_executor.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "pmoe/core/param_table.hpp"
#include "pmoe/trial/trial.hpp"
#include "progress.hpp"

namespace pmoe {

TrialExecutor::TrialExecutor(const SweepSetup& setup, const RunOptions& options, SweepStore& store,
                             std::function<void()> checkpoint, std::ostream& log)
    : setup_(setup),
      options_(options),
      store_(store),
      checkpoint_(std::move(checkpoint)),
      log_(log),
      test_cache_(options.test_cache_bytes),
      last_checkpoint_(std::chrono::steady_clock::now()) {}

// Tells the cache which trials share a test set, so that it keeps a set exactly as long as
// trials still to come will use it.
void TrialExecutor::ExpectTestSets(const std::vector<WorkItem>& items) {
  std::vector<std::string> data_keys(setup_.cells.size());
  for (const WorkItem& item : items) {
    const TrialSpec& spec = setup_.cells[item.cell].spec;
    std::string& key = data_keys[item.cell];
    if (key.empty()) key = CanonicalKey(spec, "data.");
    test_cache_.ExpectUses(key, DeriveSeeds(setup_.config.seed, spec, item.trial).data, spec.N_test,
                           1);
  }
}

void TrialExecutor::Run(const std::vector<WorkItem>& items, bool bar, size_t held) {
  ExpectTestSets(items);
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::condition_variable ready;
  std::vector<TrialRow> pending;
  bool workers_done = false;
  std::thread workers([&] {
    tbb::task_arena arena(options_.threads > 0 ? options_.threads : tbb::task_arena::automatic);
    arena.execute([&] {
      // One loop per worker over a shared counter keeps the items' order.
      tbb::parallel_for(0, arena.max_concurrency(), [&](int) {
        for (size_t i; !stop_ && (i = next++) < items.size();) {
          const Cell& cell = setup_.cells[items[i].cell];
          TrialRow row{cell.id,
                       RunTrial(cell.spec, items[i].trial, setup_.config.seed, &test_cache_)};
          std::lock_guard<std::mutex> lock(mutex);
          pending.push_back(std::move(row));
          ready.notify_one();
        }
      });
    });
    std::lock_guard<std::mutex> lock(mutex);
    workers_done = true;
    ready.notify_one();
  });

  // The ETA's cost model: modelled seconds per trial of each cell, summed as trials finish.
  std::map<uint64_t, double> cost_of;
  double total_cost = 0, done_cost = 0;
  for (const WorkItem& item : items) {
    cost_of[setup_.cells[item.cell].id] = item.cost;
    total_cost += item.cost;
  }
  std::ostream null_stream(nullptr);
  Progress progress(options_.progress && bar ? std::cerr : null_stream, options_.terminal,
                    ran_ + items.size(), held, total_cost);
  std::vector<TrialRow> batch;
  try {
    for (bool finished = false; !finished;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        ready.wait_for(lock, std::chrono::milliseconds(250),
                       [&] { return !pending.empty() || workers_done; });
        batch.swap(pending);
        finished = workers_done && pending.empty();
      }
      store_.Append(batch);
      ran_ += batch.size();
      for (const TrialRow& r : batch) done_cost += cost_of[r.cell_id];
      batch.clear();
      progress.Update(ran_, done_cost);
      if (options_.interrupted() && !stop_) {
        stop_ = true;
        log_ << "\npmoe-sweep: interrupted: finishing the trials in flight, then saving\n";
      }
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last_checkpoint_).count() >=
          options_.checkpoint_seconds) {
        checkpoint_();
        last_checkpoint_ = now;
      }
    }
  } catch (...) {
    // The store failed: stop the workers (the trials in flight are lost, nothing acknowledged
    // is) and join them before the caller says what failed.
    stop_ = true;
    workers.join();
    progress.Finish(ran_);
    throw;
  }
  workers.join();
  progress.Finish(ran_);
}

}  // namespace pmoe
