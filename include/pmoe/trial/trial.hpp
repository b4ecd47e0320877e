// One trial (MODEL.md §6): one data draw, one initialization, one training run, one evaluation.
// A pure function of its spec and seeds: the same inputs give bit-identical results.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "pmoe/core/spec.hpp"
#include "pmoe/data/dataset.hpp"

namespace pmoe {

class TestSetCache;  // test_set_cache.hpp

enum class TrialStatus { kOk = 0, kDiverged = 1, kInfeasible = 2 };
const char* StatusName(TrialStatus status);

struct TrialSeeds {
  uint64_t data = 0;  // H(master, data parameters, trial): independent of N and of the model
  uint64_t init = 0;  // H(master, data seed, model parameters)
};

TrialSeeds DeriveSeeds(uint64_t master_seed, const TrialSpec& spec, int trial);

struct TrialResult {
  int trial = 0;
  TrialSeeds seeds;
  TrialStatus status = TrialStatus::kOk;
  std::string message;  // why it is not ok

  double test_acc = NAN;
  double train_acc = NAN;
  double train_loss = NAN;  // mean logistic loss on the training set after training
  int epochs = 0;
  long steps = 0;
  long router_steps = 0;       // separate pMoE router phase
  bool zero_train_error = false;
  bool success = false;

  // Separate: fraction of test samples whose discriminative patch is in J_1 (y = +1) or J_2
  // (y = -1), Lemma 4.1. Joint: fraction for which some expert gives it the largest gating
  // value among its selected patches, Assumption 4.4. NaN for the CNN.
  double router_hit = NAN;
  double router_hit_pos = NAN;  // the same over the y = +1 test samples
  double router_hit_neg = NAN;  // over the y = -1 test samples

  RealizedStats realized;  // over training and test data

  double data_ms = 0, train_ms = 0, eval_ms = 0, wall_ms = 0;
};

// With a cache, the test set comes from it when it holds the trial's, and is offered to it when
// drawn: the same bits either way.
TrialResult RunTrial(const TrialSpec& spec, int trial, uint64_t master_seed,
                     TestSetCache* test_cache = nullptr);

}  // namespace pmoe
