// One trial (MODEL.md §6): one data draw, one initialization, one training run, one evaluation.
// A pure function of its spec and seeds: the same inputs give bit-identical results. The cell's
// families (family.hpp) do the work; what they measure beyond the core fields is `metrics`.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/family/family.hpp"

namespace pmoe {

class TestSetCache;  // test_set_cache.hpp

enum class TrialStatus { kOk = 0, kDiverged = 1, kInfeasible = 2, kError = 3 };
const char* StatusName(TrialStatus status);

struct TrialSeeds {
  uint64_t data = 0;  // H(master, data parameters read, trial): independent of N and the model
  uint64_t init = 0;  // H(master, data seed, model parameters read)
};

TrialSeeds DeriveSeeds(uint64_t master_seed, const TrialSpec& spec, int trial);

struct TrialResult {
  int trial = 0;
  TrialSeeds seeds;
  TrialStatus status = TrialStatus::kOk;
  std::string message;  // why it is not ok

  double test_acc = NAN;
  double train_acc = NAN;
  double train_loss = NAN;  // mean loss on the training set after training
  int epochs = 0;
  long steps = 0;
  StopReason stop = StopReason::kNone;  // why training stopped (MODEL.md §5)
  bool zero_train_error = false;        // after training, whatever stopped it
  bool success = false;
  std::vector<int> class_counts;  // (c) training samples of each class

  Metrics metrics;  // the families' declared metrics: realized statistics, router hit rates, ...

  double data_ms = 0, train_ms = 0, eval_ms = 0, wall_ms = 0;
};

// With a cache, the test set comes from it when it holds the trial's, and is offered to it when
// drawn: the same bits either way. Never throws: a trial that fails is a result with status
// infeasible (the data model cannot be built) or error (anything else: out of memory, ...).
TrialResult RunTrial(const TrialSpec& spec, int trial, uint64_t master_seed,
                     TestSetCache* test_cache = nullptr);

}  // namespace pmoe
