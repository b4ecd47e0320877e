// One trial end to end: seeds, data, model, (router phase,) SGD, evaluation, router metrics.
#include "pmoe/trial/trial.hpp"

#include <chrono>
#include <memory>
#include <string>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/data_source.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/models/separate_moe.hpp"
#include "pmoe/train/router_trainer.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "pmoe/trial/model_factory.hpp"
#include "pmoe/trial/router_metrics.hpp"
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
    case SuccessCriterion::Kind::kTestAccuracy: return r.test_acc >= c.threshold;
    case SuccessCriterion::Kind::kRouterHit: return r.router_hit >= c.threshold;
    case SuccessCriterion::Kind::kZeroTrainError: return r.zero_train_error;
  }
  return false;
}

// The router phase of separate training, on the first router_N training samples.
void TrainSeparateRouter(const TrialSpec& spec, const Dataset& train, uint64_t init_seed,
                         SeparateMoe<float>& model, TrialResult& result) {
  RouterOptions options;
  options.samples = spec.model.router_N > 0 ? spec.model.router_N : spec.N;
  options.lr = spec.model.router_lr;
  options.batch = spec.model.router_batch;
  options.epochs = spec.model.router_epochs;
  Rng rng(StreamSeed(init_seed, InitStream::kRouterSgd));
  result.router_steps = TrainRouter(train, options, rng, model.router());
}

// Test accuracy and, for routed models, the router metrics of §6; the test routes the models
// compute for the accuracy serve both.
Evaluation EvaluateOnTest(const TrialSpec& spec, Model<float>& model, const Dataset& test,
                          TrialResult& result) {
  RouterHits hits;
  Evaluation on_test;
  if (auto* separate = dynamic_cast<SeparateMoe<float>*>(&model)) {
    const PatchBlocks<float> routed = separate->Prepare(test.x, test.size());
    on_test = Evaluate(model, routed, test.y);
    hits = SeparateRouterHits(routed.routes, spec.model.k, spec.model.l, test);
  } else {
    auto* joint = dynamic_cast<JointMoe<float>*>(&model);
    if (joint != nullptr) joint->KeepRoutes(true);  // the evaluation's routes serve the metrics
    on_test = Evaluate(model, model.Prepare(test.x, test.size()), test.y);
    if (joint == nullptr) return on_test;
    hits = JointGatingHits(joint->TakeRoutes(), spec.model.k, spec.model.l, test);
    joint->KeepRoutes(false);
  }
  result.router_hit = hits.all;
  result.router_hit_pos = hits.pos;
  result.router_hit_neg = hits.neg;
  return on_test;
}

}  // namespace

const char* StatusName(TrialStatus status) {
  switch (status) {
    case TrialStatus::kOk: return "ok";
    case TrialStatus::kDiverged: return "diverged";
    case TrialStatus::kInfeasible: return "infeasible";
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
  const auto start = Clock::now();
  TrialResult result;
  result.trial = trial;
  result.seeds = DeriveSeeds(master_seed, spec, trial);

  std::unique_ptr<DataSource> source;
  try {
    source = MakeDataSource(spec.data, result.seeds.data);
  } catch (const std::runtime_error& e) {  // InfeasibleError, or unreadable image files
    result.status = TrialStatus::kInfeasible;
    result.message = e.what();
    result.wall_ms = MillisecondsSince(start);
    return result;
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
  result.realized = source->Measure(train, test);
  result.data_ms = MillisecondsSince(start);

  const auto train_start = Clock::now();
  auto model = MakeModel<float>(spec.model, train.d, result.seeds.init);
  if (auto* separate = dynamic_cast<SeparateMoe<float>*>(model.get()))
    TrainSeparateRouter(spec, train, result.seeds.init, *separate, result);
  const PatchBlocks<float> train_in = model->Prepare(train.x, train.size());
  SgdOptions options;
  options.lr = spec.model.lr;
  options.batch = spec.model.batch;
  options.epochs = spec.model.epochs;
  options.early_stop = spec.model.early_stop;
  Rng sgd_rng(StreamSeed(result.seeds.init, InitStream::kSgd));
  const SgdOutcome outcome = TrainSgd(*model, train_in, train.y, options, sgd_rng);
  result.epochs = outcome.epochs;
  result.steps = outcome.steps;
  result.train_ms = MillisecondsSince(train_start);

  const auto eval_start = Clock::now();
  const Evaluation on_train = Evaluate(*model, train_in, train.y);
  const Evaluation on_test = EvaluateOnTest(spec, *model, test, result);
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
  result.wall_ms = MillisecondsSince(start);
  return result;
}

}  // namespace pmoe
