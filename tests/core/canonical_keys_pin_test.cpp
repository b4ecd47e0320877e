// Pins the canonical keys and seeds of a representative cell of every model and data family
// (defaults, and settings away from them: unkeyed parameters, a family's own parameters), so
// that no change to where parameters are declared can move a recorded key or seed. The expected
// texts were printed by the hidden case below before the parameter declarations moved; never
// regenerate them to make this pass. Numerics version 8 (one step cap: the full-batch families'
// model.full_steps became model.max_steps) moved the four cluster cells' keys and init seeds on
// purpose; their pins were printed again then, and their data seeds did not move.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

struct Pinned {
  std::string key;                // CanonicalKey(spec, "")
  uint64_t data_seed, init_seed;  // DeriveSeeds(20240601, spec, 3)
};

const std::vector<std::vector<std::pair<std::string, std::string>>>& Settings() {
  static const std::vector<std::vector<std::pair<std::string, std::string>>> s = {
      {{"data.model", "pattern"}, {"model.kind", "separate"}},
      {{"data.model", "pattern"}, {"model.kind", "joint"}},
      {{"data.model", "pattern"}, {"model.kind", "cnn"}},
      {{"data.model", "pattern"},
       {"model.kind", "separate"},
       {"data.c", "4"},
       {"model.k", "4"},
       {"model.loss", "softmax"},
       {"model.router_N", "100"},
       {"model.sigma_r", "0.3"},
       {"model.max_steps", "5000"},
       {"model.epochs", "1"}},
      {{"data.model", "pattern"},
       {"model.kind", "separate"},
       {"model.router_samples", "50"},
       {"model.epochs", "1"},
       {"model.router_epochs", "1"}},
      {{"data.model", "pattern"}, {"model.kind", "joint"}, {"model.sigma_g", "0.01"}},
      {{"data.model", "image"}, {"model.kind", "cnn"}},
      {{"data.model", "image"},
       {"model.kind", "separate"},
       {"data.classes", "0,1,2"},
       {"model.k", "0"},
       {"model.m", "30"},
       {"data.idx_dir", "mnist"}},
      {{"data.model", "cluster"}, {"model.kind", "switch"}},
      {{"data.model", "cluster"}, {"model.kind", "single"}},
      {{"data.model", "cluster"},
       {"model.kind", "switch"},
       {"model.max_steps", "300"},
       {"model.filters", "32"},
       {"data.clusters", "6"},
       {"model.activation", "linear"}},
      {{"data.model", "cluster"}, {"model.kind", "single"}, {"model.init_scale", "0.5"}},
      {{"data.model", "toy"}, {"model.kind", "toy_model"}},
      {{"data.model", "toy"}, {"model.kind", "toy_model"}, {"data.toy_dim", "5"}},
  };
  return s;
}

// Printed by the case below at the branch point; the seeds of the built-in families' cells were
// checked against that commit's pmoe-sim --json (trial 3, seed 20240601).
const std::vector<Pinned>& PinnedKeys() {
  static const std::vector<Pinned> pins = {
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=separate;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;model.l=4;model.k=2;model.m=40;model.lr=0.2;model.batch=20;model.epochs=150;model.max_"
       "steps=0;model.early_stop=true;model.sigma_w=0.1;model.sigma_r=0.1;model.output_init="
       "gaussian;model.router_N=0;model.router_lr=0.2;model.router_batch=20;model.router_epochs="
       "100;",
       564028162199764331ULL, 343860731861475071ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=joint;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;model.l=4;model.k=2;model.m=40;model.lr=0.2;model.batch=20;model.epochs=150;model.max_"
       "steps=0;model.early_stop=true;model.sigma_w=0.1;model.sigma_g=0.0001;model.output_init="
       "gaussian;",
       564028162199764331ULL, 10095181840208686218ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=cnn;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;model.m=40;model.lr=0.2;model.batch=20;model.epochs=150;model.max_steps=0;model.early_"
       "stop=true;model.sigma_w=0.1;model.output_init=gaussian;",
       564028162199764331ULL, 5830905614417489265ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=separate;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;data.c=4;model.l=4;model.k=4;model.m=40;model.lr=0.2;model.batch=20;model.epochs=1;model."
       "max_steps=5000;model.early_stop=true;model.sigma_w=0.1;model.sigma_r=0.3;model.output_init="
       "gaussian;model.loss=softmax;model.router_N=100;model.router_lr=0.2;model.router_batch=20;"
       "model.router_epochs=100;",
       18428052024381606271ULL, 17748471191168413342ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=separate;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;model.l=4;model.k=2;model.m=40;model.lr=0.2;model.batch=20;model.epochs=1;model.max_"
       "steps=0;model.early_stop=true;model.sigma_w=0.1;model.sigma_r=0.1;model.output_init="
       "gaussian;model.router_N=0;model.router_lr=0.2;model.router_batch=20;model.router_epochs=1;"
       "model.router_samples=50;",
       564028162199764331ULL, 863158453581593747ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=pattern;model.kind=joint;data."
       "labels=iid;data.n=16;data.d=64;data.delta_d=0.2;data.delta_r=0.6;data.p=8;data.p_confuser=-"
       "1;data.l_star=4;data.radius=0.05;data.confuser_strength=1;data.confusers=fixed;data.noise="
       "0;model.l=4;model.k=2;model.m=40;model.lr=0.2;model.batch=20;model.epochs=150;model.max_"
       "steps=0;model.early_stop=true;model.sigma_w=0.1;model.sigma_g=0.01;model.output_init="
       "gaussian;",
       564028162199764331ULL, 1621327635112637029ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=image;model.kind=cnn;data.labels="
       "iid;data.n=16;data.idx_dir=/usr/share/datasets/"
       "fashion-mnist;data.class_pos=0;data.class_neg=1;data.irrelevant=;model.m=40;model.lr=0.2;"
       "model.batch=20;model.epochs=150;model.max_steps=0;model.early_stop=true;model.sigma_w=0.1;"
       "model.output_init=gaussian;",
       17710197329284316390ULL, 2891286679779377855ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=image;model.kind=separate;data."
       "labels=iid;data.n=16;data.idx_dir=mnist;data.class_pos=0;data.class_neg=1;data.irrelevant=;"
       "data.classes=0,1,2;model.l=4;model.k=0;model.m=30;model.lr=0.2;model.batch=20;model.epochs="
       "150;model.max_steps=0;model.early_stop=true;model.sigma_w=0.1;model.sigma_r=0.1;model."
       "output_init=gaussian;model.router_N=0;model.router_lr=0.2;model.router_batch=20;model."
       "router_epochs=100;",
       6931488703744302266ULL, 4378824762684833505ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=cluster;model.kind=switch;data."
       "labels=iid;data.n=16;data.d=64;data.clusters=4;data.alpha_lo=0.5;data.alpha_hi=2;data.beta_"
       "lo=1;data.beta_hi=2;data.gamma_lo=0.5;data.gamma_hi=3;data.sigma_p=1;data.scale=10;data."
       "draw=per_trial;data.draw_seed=0;model.max_steps=0;model.activation=cubic;model.filters=0;"
       "model.init_scale=0;model.stop_rule=published;model.loss_rise=0.02;model.curve_every=0;"
       "model.experts=8;model.variant=published;model.lr_expert=0.001;model.lr_router=0.1;model."
       "load_balance=0;",
       5392249672382083431ULL, 7355156435671041237ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=cluster;model.kind=single;data."
       "labels=iid;data.n=16;data.d=64;data.clusters=4;data.alpha_lo=0.5;data.alpha_hi=2;data.beta_"
       "lo=1;data.beta_hi=2;data.gamma_lo=0.5;data.gamma_hi=3;data.sigma_p=1;data.scale=10;data."
       "draw=per_trial;data.draw_seed=0;model.max_steps=0;model.activation=cubic;model.filters=0;"
       "model.init_scale=0;model.stop_rule=published;model.loss_rise=0.02;model.curve_every=0;"
       "model.optimizer=adam;model.lr_single=0;model.weight_decay=0.0005;",
       5392249672382083431ULL, 6911453336161118821ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=cluster;model.kind=switch;data."
       "labels=iid;data.n=16;data.d=64;data.clusters=6;data.alpha_lo=0.5;data.alpha_hi=2;data.beta_"
       "lo=1;data.beta_hi=2;data.gamma_lo=0.5;data.gamma_hi=3;data.sigma_p=1;data.scale=10;data."
       "draw=per_trial;data.draw_seed=0;model.max_steps=300;model.activation=linear;model.filters="
       "32;model.init_scale=0;model.stop_rule=published;model.loss_rise=0.02;model.curve_every=0;"
       "model.experts=8;model.variant=published;model.lr_expert=0.001;model.lr_router=0.1;model."
       "load_balance=0;",
       18123653920464919987ULL, 2704372020322775312ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=cluster;model.kind=single;data."
       "labels=iid;data.n=16;data.d=64;data.clusters=4;data.alpha_lo=0.5;data.alpha_hi=2;data.beta_"
       "lo=1;data.beta_hi=2;data.gamma_lo=0.5;data.gamma_hi=3;data.sigma_p=1;data.scale=10;data."
       "draw=per_trial;data.draw_seed=0;model.max_steps=0;model.activation=cubic;model.filters=0;"
       "model.init_scale=0.5;model.stop_rule=published;model.loss_rise=0.02;model.curve_every=0;"
       "model.optimizer=adam;model.lr_single=0;model.weight_decay=0.0005;",
       5392249672382083431ULL, 11695476004021265479ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=toy;model.kind=toy_model;data.n="
       "16;data.toy_dim=3;data.toy_signal=2;model.toy_threshold=0;model.toy_fail=false;",
       13434113469197532452ULL, 11848018589137524002ULL},
      {"N=500;N_test=2000;success=test_accuracy>=0.95;data.model=toy;model.kind=toy_model;data.n="
       "16;data.toy_dim=5;data.toy_signal=2;model.toy_threshold=0;model.toy_fail=false;",
       12906609448088485536ULL, 2406172370186191257ULL},
  };
  return pins;
}

TrialSpec SpecOf(const std::vector<std::pair<std::string, std::string>>& settings) {
  TrialSpec spec;
  for (const auto& [name, value] : settings) SetParam(spec, name, value, "pin");
  return spec;
}

// The rows a family's cells read, in table order.
std::vector<std::string> RowsReadBy(const std::vector<ParamInfo>& table,
                                    const std::string& family) {
  std::vector<std::string> names;
  for (const ParamInfo& p : table)
    for (const std::string& r : p.readers)
      if (r == family) names.push_back(p.name);
  return names;
}

}  // namespace

TEST_CASE("Canonical keys and seeds of every family's cells are the recorded ones",
          "[params][pin]") {
  REQUIRE(Settings().size() == PinnedKeys().size());
  for (size_t i = 0; i < Settings().size(); ++i) {
    const TrialSpec spec = SpecOf(Settings()[i]);
    const TrialSeeds seeds = DeriveSeeds(20240601, spec, 3);
    INFO("cell " << i);
    CHECK(CanonicalKey(spec, "") == PinnedKeys()[i].key);
    CHECK(seeds.data == PinnedKeys()[i].data_seed);
    CHECK(seeds.init == PinnedKeys()[i].init_seed);
  }
}

TEST_CASE("Every family's cells are pinned", "[params][pin]") {
  std::set<std::string> data, models;
  for (const auto& settings : Settings()) {
    const TrialSpec spec = SpecOf(settings);
    data.insert(spec.data.model);
    models.insert(spec.model.kind);
  }
  for (const DataFamily* f : DataFamilies()) CHECK(data.count(f->name()));
  for (const ModelFamily* f : ModelFamilies()) CHECK(models.count(f->name()));
}

TEST_CASE("The order of the family list changes no family's rows or their order", "[params][pin]") {
  std::vector<FamilyParams> data = DataFamilyParams(), models = ModelFamilyParams();
  const std::vector<ParamInfo> table = BuildParamTable(data, models);
  std::reverse(data.begin(), data.end());
  std::reverse(models.begin(), models.end());
  const std::vector<ParamInfo> reversed = BuildParamTable(data, models);
  REQUIRE(reversed.size() == table.size());
  for (const auto* list : {&data, &models})
    for (const FamilyParams& f : *list) {
      INFO(f.name);
      CHECK(RowsReadBy(reversed, f.name) == RowsReadBy(table, f.name));
    }
}

TEST_CASE("Print the pinned cells (run by hand, never to make the pin pass)", "[.][pin_dump]") {
  for (const auto& settings : Settings()) {
    TrialSpec spec;
    for (const auto& [name, value] : settings) SetParam(spec, name, value, "pin");
    const TrialSeeds seeds = DeriveSeeds(20240601, spec, 3);
    std::printf("{\"%s\", %lluULL, %lluULL},\n", CanonicalKey(spec, "").c_str(),
                static_cast<unsigned long long>(seeds.data),
                static_cast<unsigned long long>(seeds.init));
  }
}

}  // namespace pmoe
