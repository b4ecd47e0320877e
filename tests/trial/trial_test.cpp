// A trial is a pure function of its spec and seeds; seeds pair data across N and models; trouble
// inside a trial becomes its status.
#include "pmoe/trial/trial.hpp"

#include <catch2/catch.hpp>
#include <cstring>

#include "pmoe/trial/test_set_cache.hpp"

namespace pmoe {
namespace {

TrialSpec SmallSpec(const std::string& kind) {
  TrialSpec spec;
  spec.model.kind = kind;
  if (kind == "joint") {
    SetParamValue(spec, "model.k", 8);
    SetParamValue(spec, "model.l", 6);
  }
  spec.N = 200;
  spec.N_test = 300;
  SetParamValue(spec, "model.epochs", 20);
  return spec;
}

void RequireSameOutcome(const TrialResult& a, const TrialResult& b) {
  REQUIRE(a.seeds.data == b.seeds.data);
  REQUIRE(a.seeds.init == b.seeds.init);
  REQUIRE(a.status == b.status);
  REQUIRE(a.test_acc == b.test_acc);
  REQUIRE(a.train_acc == b.train_acc);
  REQUIRE(a.train_loss == b.train_loss);  // bit for bit
  REQUIRE(a.epochs == b.epochs);
  REQUIRE(a.steps == b.steps);
  REQUIRE(a.stop == b.stop);
  REQUIRE(a.class_counts == b.class_counts);
  // Every metric the families recorded (router hit rates, realized statistics), bit for bit.
  REQUIRE(a.metrics.values().size() == b.metrics.values().size());
  for (const auto& [name, value] : a.metrics.values()) {
    INFO(name);
    const double other = b.metrics.Get(name);
    REQUIRE(std::memcmp(&value, &other, sizeof value) == 0);
  }
}

}  // namespace

TEST_CASE("The same spec and seed give bit-identical trials", "[trial]") {
  for (const char* kind : {"cnn", "separate", "joint"}) {
    INFO(kind);
    const TrialSpec spec = SmallSpec(kind);
    RequireSameOutcome(RunTrial(spec, 3, 42), RunTrial(spec, 3, 42));
    CHECK(RunTrial(spec, 4, 42).train_loss != RunTrial(spec, 3, 42).train_loss);
  }
}

TEST_CASE("The data seed depends on neither N nor the model but the init seed depends on the model",
          "[trial][seeds]") {
  const TrialSpec base = SmallSpec("separate");
  TrialSpec more = base;
  more.N = 1000;
  TrialSpec cnn = base;
  cnn.model.kind = "cnn";
  TrialSpec other_data = base;
  SetParamValue(other_data, "data.delta_r", 0.55);
  const TrialSeeds s = DeriveSeeds(1, base, 7);
  CHECK(DeriveSeeds(1, more, 7).data == s.data);
  CHECK(DeriveSeeds(1, more, 7).init == s.init);  // same init across N: paired comparisons
  CHECK(DeriveSeeds(1, cnn, 7).data == s.data);
  CHECK(DeriveSeeds(1, cnn, 7).init != s.init);
  CHECK(DeriveSeeds(1, other_data, 7).data != s.data);
  CHECK(DeriveSeeds(2, base, 7).data != s.data);
  CHECK(DeriveSeeds(1, base, 8).data != s.data);
}

TEST_CASE("Trials sharing a data seed share one cached test set and give the same results",
          "[trial][cache]") {
  const TrialSpec small = SmallSpec("separate");
  TrialSpec larger = small;  // another N and l: the same data seed, so the same test set
  larger.N = 300;
  SetParamValue(larger, "model.l", 3);
  TrialSpec other_data = small;
  SetParamValue(other_data, "data.delta_r", 0.55);
  TestSetCache cache(size_t{1} << 30);
  const TrialResult first = RunTrial(small, 3, 42, &cache);
  CHECK(cache.counts().kept == 1);
  CHECK(cache.counts().hits == 0);
  const TrialResult second = RunTrial(larger, 3, 42, &cache);
  CHECK(cache.counts().hits == 1);
  const TrialResult third = RunTrial(other_data, 3, 42, &cache);
  CHECK(cache.counts().hits == 1);  // other data parameters: its own set
  CHECK(cache.counts().kept == 2);
  const TrialResult next_trial = RunTrial(small, 4, 42, &cache);
  CHECK(cache.counts().hits == 1);  // another trial index: its own set
  CHECK(cache.counts().kept == 3);
  RequireSameOutcome(next_trial, RunTrial(small, 4, 42));
  RequireSameOutcome(first, RunTrial(small, 3, 42));
  RequireSameOutcome(second, RunTrial(larger, 3, 42));
  RequireSameOutcome(third, RunTrial(other_data, 3, 42));
  REQUIRE(second.metrics.Get("realized_l_star") ==
          RunTrial(larger, 3, 42).metrics.Get("realized_l_star"));

  TestSetCache tiny(1000);  // no room for a set: each trial draws its own
  RequireSameOutcome(RunTrial(larger, 3, 42, &tiny), second);
  CHECK(tiny.counts().kept == 0);
  CHECK(tiny.counts().bytes == 0);
}

TEST_CASE("A diverging trial becomes status diverged and never crashes", "[trial]") {
  TrialSpec spec = SmallSpec("cnn");
  // Weights near float's limit: <w, x> overflows to inf on the first step, and inf - inf in
  // the output is NaN, whatever the data.
  SetParamValue(spec, "model.sigma_w", 1e38);
  SetParamValue(spec, "model.early_stop", false);
  const TrialResult r = RunTrial(spec, 0, 1);
  CHECK(r.status == TrialStatus::kDiverged);
  CHECK_FALSE(r.success);
  CHECK_FALSE(r.message.empty());
}

TEST_CASE("An infeasible data model is a result with status infeasible", "[trial]") {
  TrialSpec spec = SmallSpec("separate");
  SetParamValue(spec, "data.delta_r", 0.25);
  const TrialResult r = RunTrial(spec, 0, 1);
  CHECK(r.status == TrialStatus::kInfeasible);
  CHECK_THAT(r.message, Catch::Matchers::Contains("delta_r >"));
}

TEST_CASE("Fixed-length training runs exactly the asked epochs", "[trial]") {
  TrialSpec spec = SmallSpec("separate");
  SetParamValue(spec, "model.early_stop", false);
  SetParamValue(spec, "model.epochs", 7);
  const TrialResult r = RunTrial(spec, 0, 1);
  CHECK(r.epochs == 7);
  CHECK(r.steps == 7 * 10);  // 200 samples in batches of 20
  CHECK(r.metrics.Get("router_steps") == 100 * 10);
  CHECK(r.stop == StopReason::kEpochCap);
}

}  // namespace pmoe
