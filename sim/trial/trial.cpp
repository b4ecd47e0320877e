// One trial end to end, the same for every family: seeds, data, learner, training, evaluation.
#include "pmoe/trial/trial.hpp"

#include <chrono>
#include <memory>
#include <new>
#include <string>

#include "allocator_reuse.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "pmoe/trial/test_set_cache.hpp"

namespace pmoe {
namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool Succeeded(const TrialSpec& spec, const TrialResult& r) {
  const SuccessCriterion c = ParseSuccess(spec.success, "");
  switch (c.kind) {
    case SuccessCriterion::Kind::kTestAccuracy:
      return r.test_acc >= c.threshold;
    case SuccessCriterion::Kind::kRouterHit:
      return r.metrics.Get("router_hit") >= c.threshold;
    case SuccessCriterion::Kind::kZeroTrainError:
      return r.zero_train_error;
  }
  return false;
}

std::vector<int> ClassCounts(const Dataset& data) {
  std::vector<int> counts(data.classes, 0);
  for (int label : data.label) ++counts.at(label);
  return counts;
}

// The body of RunTrial; exceptions are its caller's to turn into a status.
void Run(const TrialSpec& spec, TestSetCache* test_cache, Clock::time_point start,
         TrialResult& result) {
  const DataFamily& data_family = DataFamilyOf(spec);
  std::unique_ptr<DataSource> source;
  try {
    source = data_family.Make(spec, result.seeds.data);
  } catch (const InfeasibleError& e) {
    result.status = TrialStatus::kInfeasible;
    result.message = e.what();
    return;
  } catch (const SchemaError& e) {  // unreadable image files
    result.status = TrialStatus::kInfeasible;
    result.message = e.what();
    return;
  }
  // Each worker thread keeps its last data sets' storage: the next trial of the same cell
  // (adjacent in a sweep's work order) then writes into memory that is already mapped.
  thread_local Dataset train, own_test;
  source->Draw(Split::kTrain, spec.N, train);
  std::shared_ptr<const Dataset> cached_test;
  std::string data_key;
  if (test_cache != nullptr) {
    data_key = CanonicalKey(spec, "data.");
    cached_test = test_cache->Find(data_key, result.seeds.data, spec.N_test);
  }
  if (cached_test == nullptr) {
    source->Draw(Split::kTest, spec.N_test, own_test);
    if (test_cache != nullptr) test_cache->Offer(data_key, result.seeds.data, own_test);
  }
  const Dataset& test = cached_test != nullptr ? *cached_test : own_test;
  source->Record(train, test, result.metrics);
  result.class_counts = ClassCounts(train);
  result.data_ms = MillisecondsSince(start);

  const auto train_start = Clock::now();
  const DataShape shape{train.n, train.d, train.classes};
  const ModelFamily& model_family = ModelFamilyOf(spec);
  auto learner = model_family.Make(spec, shape, result.seeds.init);
  thread_local Dataset router_set;
  if (const int router_samples = model_family.RouterSamples(spec); router_samples > 0) {
    source->Draw(Split::kRouter, router_samples, router_set);
    learner->UseRouterSamples(router_set);
  }
  const TrainOutcome outcome = learner->Train(train, result.metrics);
  result.epochs = outcome.epochs;
  result.steps = outcome.steps;
  result.stop = outcome.stop;
  result.train_ms = MillisecondsSince(train_start);

  const auto eval_start = Clock::now();
  const Evaluation on_train = learner->EvaluateTrain();
  const Evaluation on_test = learner->EvaluateTest(test, result.metrics);
  result.train_acc = on_train.accuracy;
  result.train_loss = on_train.loss;
  result.test_acc = on_test.accuracy;
  result.zero_train_error = on_train.errors == 0;
  result.eval_ms = MillisecondsSince(eval_start);

  if (outcome.diverged || !on_train.finite || !on_test.finite) {
    result.status = TrialStatus::kDiverged;
    result.message = outcome.diverged ? outcome.message : "model output not finite";
  }
  result.success = result.status == TrialStatus::kOk && Succeeded(spec, result);
}

}  // namespace

const char* StatusName(TrialStatus status) {
  switch (status) {
    case TrialStatus::kOk:
      return "ok";
    case TrialStatus::kDiverged:
      return "diverged";
    case TrialStatus::kInfeasible:
      return "infeasible";
    case TrialStatus::kError:
      return "error";
  }
  return "unknown";
}

TrialSeeds DeriveSeeds(uint64_t master_seed, const TrialSpec& spec, int trial) {
  TrialSeeds seeds;
  const uint64_t data_key = HashString(CanonicalKey(spec, "data."));
  seeds.data = CombineSeed(CombineSeed(master_seed, data_key), static_cast<uint64_t>(trial));
  const uint64_t model_key = HashString(CanonicalKey(spec, "model."));
  seeds.init = CombineSeed(CombineSeed(master_seed, seeds.data), model_key);
  return seeds;
}

TrialResult RunTrial(const TrialSpec& spec, int trial, uint64_t master_seed,
                     TestSetCache* test_cache) {
  KeepFreedMemoryForReuse();
  const auto start = Clock::now();
  TrialResult result;
  result.trial = trial;
  result.seeds = DeriveSeeds(master_seed, spec, trial);
  try {
    Run(spec, test_cache, start, result);
  } catch (const std::bad_alloc&) {
    result.status = TrialStatus::kError;
    result.message = "out of memory (std::bad_alloc)";
  } catch (const std::exception& e) {
    result.status = TrialStatus::kError;
    result.message = e.what();
  }
  if (result.status == TrialStatus::kError) result.success = false;
  result.wall_ms = MillisecondsSince(start);
  return result;
}

}  // namespace pmoe
