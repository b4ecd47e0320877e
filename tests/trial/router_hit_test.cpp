// The separately trained router on the default data set behaves as MODEL.md §2 predicts, and
// separate pMoE at l = l* learns the task (issue: the simulator core).
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/core/rng.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/joint_moe.hpp"
#include "pmoe/train/sgd_trainer.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {

TEST_CASE("Router hit rate is 1/8 1/2 7/8 1 at l = 1..4 on the default data set",
          "[trial][router]") {
  // K = 3 strong confusers, each toward o1 or o2 with probability 1/2: the discriminative patch
  // is in the top l iff fewer than l confusers point toward the sample's own class.
  const double expected[] = {1.0 / 8, 1.0 / 2, 7.0 / 8, 1.0};
  for (int l = 1; l <= 4; ++l) {
    TrialSpec spec;
    spec.model.kind = "separate";
    SetParamValue(spec, "model.l", l);
    SetParamValue(spec, "model.epochs",
                  1);  // the router phase decides the hit rate; the experts do not matter
    spec.N = 500;
    const int trials = 4;
    double sum = 0;
    for (int t = 0; t < trials; ++t) sum += RunTrial(spec, t, 1).metrics.Get("router_hit");
    const double rate = sum / trials;
    const double p = expected[l - 1];
    const double sd = std::sqrt(p * (1 - p) / (trials * spec.N_test));
    INFO("l = " << l << ": hit rate " << rate << ", expected " << p << " (sd " << sd << ")");
    CHECK(std::abs(rate - p) <= 4 * sd + 1e-3);
  }
}

TEST_CASE("Joint pMoE: the routes kept from its evaluation are those Route computes",
          "[trial][router]") {
  // The trial takes the joint router's hit rate from the evaluation's forward passes, which
  // run in chunks: 1100 samples end in a partial chunk.
  TrialSpec spec;
  spec.model.kind = "joint";
  SetParamValue(spec, "model.k", 4);
  SetParamValue(spec, "model.l", 3);
  const auto source = PatternFamily().Make(spec, 5);
  Dataset test;
  source->Draw(Split::kTest, 1100, test);
  auto model = MakeModel<float>(ModelSpecOf(spec), test.d, 6);
  auto& joint = dynamic_cast<JointMoe<float>&>(*model);
  Rng rng(7);
  for (Eigen::Index i = 0; i < joint.gating().size(); ++i)
    joint.gating().data()[i] = static_cast<float>(rng.Normal());
  joint.KeepRoutes(true);
  Evaluate(*model, model->Prepare(test.x, test.size()), test.label.data());
  const std::vector<int> kept = joint.TakeRoutes();
  CHECK(kept.size() == size_t{1100} * 4 * 3);
  CHECK(kept == joint.Route(test.x, test.size()));
}

TEST_CASE("Separate pMoE with l = l* and N = 1000 reaches test accuracy >= 0.95",
          "[trial][router]") {
  TrialSpec spec;
  spec.model.kind = "separate";
  SetParamValue(spec, "model.l", 4);
  spec.N = 1000;
  int good = 0;
  const int trials = 10;
  for (int t = 0; t < trials; ++t) good += RunTrial(spec, t, 1).test_acc >= 0.95;
  INFO(good << " of " << trials << " trials reached 0.95");
  CHECK(good >= 8);
}

}  // namespace pmoe
