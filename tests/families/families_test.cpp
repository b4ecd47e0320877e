// Families (family.hpp): what a cell reads decides its seeds, key and results; a family is a
// file or two (the toys, end to end); a failing trial is a row; a failing store stops cleanly;
// the loss objects; the training budget; balanced labels; axes that only some families read.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "families/toy_families.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/builtin.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/loss.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/trial/trial.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"
#include "toy_sweep.hpp"

namespace pmoe {
namespace {

// Another valid text for parameter p than the one `spec` has.
std::string OtherValue(const ParamInfo& p, const TrialSpec& spec) {
  const std::string now = p.get(spec);
  switch (p.type) {
    case ParamType::kInt:
      return std::to_string(std::stoll(now) == p.max ? p.max - 1 : std::stoll(now) + 1);
    case ParamType::kDouble:
      return FormatDouble(std::stod(now) + 0.125);
    case ParamType::kBool:
      return now == "true" ? "false" : "true";
    case ParamType::kChoice:
      for (const auto& c : p.choices)
        if (c != now) return c;
      return now;
    case ParamType::kString:
      return now + "x";
  }
  return now;
}

// A small cell of the given families (quick enough to run for every parameter).
TrialSpec SmallCell(const std::string& data, const std::string& model) {
  TrialSpec spec;
  spec.data.model = data;
  spec.model.kind = model;
  spec.N = 40;
  spec.N_test = 60;
  SetParamValue(spec, "model.epochs", 3);
  SetParamValue(spec, "model.router_epochs", 2);
  if (model == "switch" || model == "single") SetParam(spec, "model.max_steps", "3", "test");
  if (data == "image") SetParamValue(spec, "data.n", 4);
  return spec;
}

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("A parameter a cell's families do not read changes neither its seeds, key nor results",
          "[family]") {
  int checked = 0;
  for (const DataFamily* data : DataFamilies())
    for (const ModelFamily* model : ModelFamilies()) {
      const TrialSpec base = SmallCell(data->name(), model->name());
      if (data->name() == "image") {  // needs the Fashion-MNIST files
        try {
          data->Shape(base);
        } catch (const SchemaError&) {
          WARN("no image files: image cells not checked");
          continue;
        }
      }
      const TrialResult reference = RunTrial(base, 1, 9);
      REQUIRE(reference.status == TrialStatus::kOk);
      for (const ParamInfo& p : ParamTable()) {
        if (p.ReadBy(base)) continue;
        TrialSpec changed = base;
        SetParam(changed, p.name, OtherValue(p, base), "test");
        INFO(data->name() << "/" << model->name() << ": " << p.name << " = " << p.get(changed));
        REQUIRE(p.get(changed) != p.get(base));
        REQUIRE(CanonicalKey(changed, "") == CanonicalKey(base, ""));
        const TrialSeeds a = DeriveSeeds(9, base, 1), b = DeriveSeeds(9, changed, 1);
        REQUIRE(a.data == b.data);
        REQUIRE(a.init == b.init);
        const TrialResult r = RunTrial(changed, 1, 9);
        REQUIRE(SameBits(r.test_acc, reference.test_acc));
        REQUIRE(SameBits(r.train_loss, reference.train_loss));
        REQUIRE(r.steps == reference.steps);
        for (const auto& [name, value] : reference.metrics.values())
          REQUIRE(SameBits(r.metrics.Get(name), value));
        ++checked;
      }
    }
  CHECK(checked > 100);
}

TEST_CASE("A parameter the cell's families read does change its key", "[family]") {
  const TrialSpec base = SmallCell("pattern", "cnn");
  for (const ParamInfo& p : ParamTable()) {
    if (!p.ReadBy(base) || p.name == "data.model" || p.name == "model.kind") continue;
    TrialSpec changed = base;
    SetParam(changed, p.name, OtherValue(p, base), "test");
    INFO(p.name);
    CHECK(CanonicalKey(changed, "") != CanonicalKey(base, ""));
  }
}

TEST_CASE("Toy families defined in tests/ run end to end through pmoe-sweep and pmoe-analyze",
          "[family][sweep]") {
  const std::string dir = RunToySweep("toy_families");
  const ResultContents file = ReadResultFile(dir + "/toy.h5");
  CHECK(file.rows.size() == 16);
  for (const TrialRow& r : file.rows) {
    CHECK(r.result.status == TrialStatus::kOk);
    CHECK(r.result.metrics.Has("toy_margin_rate"));
    CHECK(r.result.metrics.Has("toy_class0_fraction"));
  }
  const auto summary =
      test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " summary " + dir + "/toy.h5 --csv");
  REQUIRE(summary.status == 0);
  CHECK_THAT(summary.out, Catch::Matchers::Contains("toy_margin_rate") &&
                              Catch::Matchers::Contains("toy_class0_fraction") &&
                              Catch::Matchers::Contains("data.toy_signal"));
  // And the plots draw it, toy metrics included, knowing nothing of the toys either.
  const auto plots = test::RunCommand("cd " + std::string(PMOE_SOURCE_DIR) +
                                      " && make -f Makefile.plots RESULTS=" + dir +
                                      " ANALYZE=" + PMOE_ANALYZE_PATH);
  INFO(plots.out << plots.err);
  CHECK(plots.status == 0);
  int pngs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/plots/toy"))
    pngs += entry.path().extension() == ".png";
  CHECK(pngs > 0);
  // The rate the toy model declares (toy_margin_rate, rate = true) has a figure against N.
  CHECK(std::filesystem::exists(dir + "/plots/toy/toy_toy_margin_rate_vs_N.png"));
  // The built-in pmoe-sweep does not know the toys, and says so by name.
  const auto refused = test::RunCommand(test::SweepCommand("plan " + dir + "/toy.ini"));
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Catch::Matchers::Contains("toy"));
}

namespace {

// Runs pmoe-sweep-toy on `grid` (the toy families, 2 trials) into DIR/NAME.h5 and returns
// pmoe-analyze exponent's CSV over `axis`.
std::string ToyExponents(const std::string& dir, const std::string& name, const std::string& grid,
                         const std::string& axis) {
  const std::string base = dir + "/" + name;
  std::ofstream(base + ".ini") << "trials = 2\nN_test = 100\n[data]\nmodel = toy\n"
                                  "toy_dim = 2\n[model]\nkind = toy_model\n[grid]\n"
                               << grid;
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_TOY_PATH) + " run " + base +
                                    ".ini --out " + base + ".h5");
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto exponent = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " exponent " + base +
                                         ".h5 --over " + axis + " --csv");
  INFO(exponent.err);
  REQUIRE(exponent.status == 0);
  return exponent.out;
}

}  // namespace

TEST_CASE(
    "A toy family's own sample-complexity bound is pmoe-analyze's theory, no analysis code "
    "changed",
    "[family][analysis][theory]") {
  // The toy model declares "n / toy_signal^2" (tests/families/toy_model_family.cpp); the sweep
  // writes it into /theory and the analysis reads the order of the axis off it.
  const std::string dir = test::FreshDirectory("toy_theory");
  CHECK_THAT(
      ToyExponents(dir, "signal", "N = 10,20,40\ndata.toy_signal = 0.5,1,2\n", "data.toy_signal"),
      Catch::Matchers::Contains("theory,theory_formula") &&
          Catch::Matchers::Contains("all,success,") &&
          Catch::Matchers::Contains(",-2,n / toy_signal^2"));
  // Over n, which the bound names with power 1 (data.n is read by the toy data).
  CHECK_THAT(ToyExponents(dir, "n", "N = 10,20,40\ndata.n = 2,4\n", "n"),
             Catch::Matchers::Contains(",1,n / toy_signal^2"));
}

TEST_CASE("A trial that throws is a row with status error, and the sweep finishes",
          "[family][sweep]") {
  const std::string dir = test::FreshDirectory("toy_errors");
  std::ofstream(dir + "/fail.ini")
      << "trials = 3\nN = 20\nN_test = 50\n[data]\nmodel = toy\n"
         "[model]\nkind = toy_model\n[grid]\nmodel.toy_fail = false,true\n";
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_TOY_PATH) + " run " + dir +
                                    "/fail.ini --out " + dir + "/fail.h5");
  INFO(run.err);
  REQUIRE(run.status == 0);
  const ResultContents file = ReadResultFile(dir + "/fail.h5");
  REQUIRE(file.rows.size() == 6);
  int errors = 0;
  for (const TrialRow& r : file.rows)
    if (r.result.status == TrialStatus::kError) {
      ++errors;
      CHECK(r.result.message == "toy model asked to fail");
      CHECK_FALSE(r.result.success);
    }
  CHECK(errors == 3);
  const auto status =
      test::RunCommand(std::string(PMOE_SWEEP_TOY_PATH) + " status " + dir + "/fail.h5");
  CHECK_THAT(status.out, Catch::Matchers::Contains("3 error"));
}

TEST_CASE("A store that cannot write stops the run cleanly, and a rerun finishes identically",
          "[family][sweep][store]") {
  const std::string dir = test::FreshDirectory("store_failure");
  const std::string config = test::WriteQuickSweep(dir, "full", 2);
  REQUIRE(
      test::RunCommand(test::SweepCommand("run " + config + " --out " + dir + "/a.h5")).status ==
      0);
  // Files may not grow past 6 KiB: a journal append fails with EFBIG ("File too large") after
  // a few batches, as on a full disk with ENOSPC, and the last record is torn. SIGXFSZ is
  // ignored, so the write fails instead of killing the process.
  const auto limited =
      test::RunCommand("bash -c 'trap \"\" XFSZ; ulimit -f 6; exec " +
                       test::SweepCommand("run " + config + " --out " + dir + "/b.h5") + "'");
  INFO(limited.err);
  CHECK(limited.status == 3);
  CHECK_THAT(limited.err,
             Catch::Matchers::Contains("File too large") && Catch::Matchers::Contains("run again"));
  const auto rerun =
      test::RunCommand(test::SweepCommand("run " + config + " --out " + dir + "/b.h5"));
  INFO(rerun.err);
  REQUIRE(rerun.status == 0);
  CHECK(test::CompareResults(dir + "/a.h5", dir + "/b.h5") == "");
}

TEST_CASE(
    "A result file that cannot be written stops cleanly, keeps the journal, and a rerun "
    "rebuilds it identically",
    "[family][sweep][store]") {
  const std::string dir = test::FreshDirectory("result_write_failure");
  const std::string config = test::WriteQuickSweep(dir, "small", 1);
  REQUIRE(
      test::RunCommand(test::SweepCommand("run " + config + " --out " + dir + "/a.h5")).status ==
      0);
  // 12 KiB: the journal of these 8 trials fits, the HDF5 file does not (as on a disk that fills
  // up at the checkpoint). It used to crash at exit after HDF5 failed to close the file.
  const auto limited =
      test::RunCommand("bash -c 'trap \"\" XFSZ; ulimit -f 12; exec " +
                       test::SweepCommand("run " + config + " --out " + dir + "/b.h5") + "'");
  INFO(limited.err);
  CHECK(limited.status == 3);
  CHECK_THAT(limited.err, Catch::Matchers::Contains("b.h5.tmp: cannot write: File too large") &&
                              Catch::Matchers::Contains("rebuilds the file"));
  CHECK_FALSE(std::filesystem::exists(dir + "/b.h5.tmp"));  // nothing half-written left
  CHECK_FALSE(std::filesystem::exists(dir + "/b.h5"));
  CHECK(std::filesystem::exists(dir + "/b.h5.journal"));
  const auto rerun =
      test::RunCommand(test::SweepCommand("run " + config + " --out " + dir + "/b.h5"));
  INFO(rerun.err);
  REQUIRE(rerun.status == 0);
  CHECK_THAT(rerun.err, Catch::Matchers::Contains("8 already done"));
  CHECK(test::CompareResults(dir + "/a.h5", dir + "/b.h5") == "");
}

TEST_CASE("Two-class softmax on (f/2, -f/2) is the logistic loss on f, slopes included",
          "[family][loss]") {
  const BinaryLogisticLoss<double> logistic;
  const SoftmaxCrossEntropy<double> softmax(2);
  for (double f : {-30.0, -2.5, -0.1, 0.0, 0.7, 4.0, 40.0})
    for (int label : {0, 1}) {
      INFO("f = " << f << ", label " << label);
      const double z[2] = {f / 2, -f / 2};
      double ls = 0, ss[2] = {0, 0};
      const double l = logistic.ValueAndSlope(&f, label, &ls);
      const double s = softmax.ValueAndSlope(z, label, ss);
      CHECK(s == Approx(l).epsilon(1e-12).margin(1e-15));
      CHECK((ss[0] - ss[1]) / 2 == Approx(ls).margin(1e-12));  // chain rule through z(f)
      if (f != 0)  // at f = 0 argmax picks class 0, the logistic sign neither: both by design
        CHECK(softmax.Correct(z, label) == logistic.Correct(&f, label));
      // Each against central finite differences of its own value.
      const double h = 1e-6;
      const double fu = f + h, fd = f - h;
      CHECK((logistic.Value(&fu, label) - logistic.Value(&fd, label)) / (2 * h) ==
            Approx(ls).margin(1e-7));
      for (int o = 0; o < 2; ++o) {
        double up[2] = {z[0], z[1]}, down[2] = {z[0], z[1]};
        up[o] += h;
        down[o] -= h;
        CHECK((softmax.Value(up, label) - softmax.Value(down, label)) / (2 * h) ==
              Approx(ss[o]).margin(1e-7));
      }
    }
  const SoftmaxCrossEntropy<double> three(3);
  const double f3[3] = {0.2, 1.5, -0.4};
  double slope[3];
  three.ValueAndSlope(f3, 1, slope);
  CHECK(slope[0] + slope[1] + slope[2] == Approx(0).margin(1e-12));
  CHECK(three.Correct(f3, 1));
  CHECK_FALSE(three.Correct(f3, 0));
}

TEST_CASE("The training budget: a step cap, no epoch cap, and a budget that cannot stop refused",
          "[family][train]") {
  TrialSpec spec = SmallCell("pattern", "cnn");
  SetParamValue(spec, "model.early_stop", false);
  SetParamValue(spec, "model.epochs", 0);
  SetParamValue(spec, "model.max_steps", 7);  // 40 samples in batches of 20: stops inside epoch 4
  TrialResult r = RunTrial(spec, 0, 1);
  CHECK(r.steps == 7);
  CHECK(r.epochs == 3);
  CHECK(r.stop == StopReason::kStepCap);
  SetParamValue(spec, "model.epochs", 2);  // the epoch cap comes first
  r = RunTrial(spec, 0, 1);
  CHECK(r.steps == 4);
  CHECK(r.stop == StopReason::kEpochCap);
  SetParamValue(spec, "model.epochs", 0);
  SetParamValue(spec, "model.max_steps", 0);
  CHECK_THROWS_WITH(ValidateSpec(spec, "t"), Catch::Matchers::Contains("model.epochs") &&
                                                 Catch::Matchers::Contains("max_steps"));
  spec = SmallCell("pattern", "separate");
  SetParamValue(spec, "data.l_star", 1);
  SetParamValue(spec, "model.epochs", 0);
  SetParamValue(spec, "model.max_steps", 100000);  // to convergence
  r = RunTrial(spec, 0, 1);
  CHECK(r.stop == StopReason::kZeroTrainError);
  CHECK(r.zero_train_error);
}

TEST_CASE("Balanced labels: every prefix within one of N/c per class, the rest drawn as usual",
          "[family][data]") {
  TrialSpec iid = SmallCell("pattern", "cnn"), balanced = iid;
  SetParamValue(balanced, "data.labels", "balanced");
  const Dataset a = PatternFamily().Make(iid, 5)->Draw(Split::kTrain, 301);
  const Dataset b = PatternFamily().Make(balanced, 5)->Draw(Split::kTrain, 301);
  int count[2] = {0, 0}, same = 0;
  for (int i = 0; i < b.size(); ++i) {
    ++count[b.label[i]];
    REQUIRE(std::abs(count[0] - count[1]) <= 1);
    if (a.label[i] != b.label[i]) continue;
    ++same;  // same class: the very same sample
    REQUIRE(a.x.middleRows(i * a.n, a.n) == b.x.middleRows(i * b.n, b.n));
  }
  CHECK(same > 100);
  const TrialResult r = RunTrial(balanced, 0, 3);
  CHECK(r.class_counts == std::vector<int>{20, 20});
}

TEST_CASE("An axis applies to the cells whose families read it", "[family][grid]") {
  const std::string dir = test::FreshDirectory("axis_readers");
  std::ofstream(dir + "/g.ini") << "trials = 2\n[grid]\nmodel.kind = separate,cnn\n"
                                   "model.l = 1:3\nN = 50,100\n";
  const std::vector<Cell> cells = ExpandGrid(LoadSweepConfig(dir + "/g.ini"));
  int cnn = 0, separate = 0;
  for (const Cell& c : cells) {
    (c.spec.model.kind == "cnn" ? cnn : separate) += 1;
    if (c.spec.model.kind == "cnn") CHECK(c.label.find("model.l") == std::string::npos);
  }
  CHECK(separate == 6);
  CHECK(cnn == 2);  // one per N, not one per (l, N)
  // A key no family of the sweep reads is refused by name.
  std::ofstream(dir + "/bad.ini") << "[data]\nmodel = image\ndelta_r = 0.5\n";
  CHECK_THROWS_WITH(ExpandGrid(LoadSweepConfig(dir + "/bad.ini")),
                    Catch::Matchers::Contains("data.delta_r is read by none"));
}

TEST_CASE("The family list is the built-in one plus the toys the tests add to it", "[family]") {
  std::vector<std::string> data, models;
  for (const DataFamily* f : DataFamilies()) data.push_back(f->name());
  for (const ModelFamily* f : ModelFamilies()) models.push_back(f->name());
  CHECK(data == std::vector<std::string>{"pattern", "image", "cluster", "toy"});
  CHECK(models ==
        std::vector<std::string>{"separate", "joint", "cnn", "switch", "single", "toy_model"});
  CHECK(AddedModelFamilies() == std::vector<const ModelFamily*>{&test::ToyModelFamily()});
}

TEST_CASE("A shared parameter's check runs for every family that reads it, and only those",
          "[family]") {
  for (const std::string kind : {"cnn", "separate", "joint"}) {
    TrialSpec spec = SmallCell("pattern", kind);
    SetParamValue(spec, "model.lr", 0);
    CHECK_THROWS_WITH(ValidateSpec(spec, "t"), Catch::Matchers::Contains("model.lr") &&
                                                   Catch::Matchers::Contains("a positive number"));
    SetParamValue(spec, "model.lr", 0.1);
    SetParamValue(spec, "data.c", 3);
    SetParamValue(spec, "model.loss", "logistic");
    if (kind == "separate") SetParamValue(spec, "model.k", 0);
    CHECK_THROWS_WITH(ValidateSpec(spec, "t"), Catch::Matchers::Contains("model.loss"));
  }
  // The toy model family reads no shared parameter: their values do not concern it.
  TrialSpec toy = SmallCell("pattern", "toy_model");
  SetParamValue(toy, "model.lr", 0);
  SetParamValue(toy, "model.sigma_w", -1);
  CHECK_NOTHROW(ValidateSpec(toy, "t"));
}

TEST_CASE("Experts and models are what each SGD family declares, and others have none",
          "[family]") {
  ModelSpec spec;
  spec.k = 0;
  spec.kind = "separate";
  CHECK(ModelExperts(spec, 5) == 5);  // one per class
  spec.k = 4;
  CHECK(ModelExperts(spec, 5) == 4);
  spec.kind = "joint";
  CHECK(ModelExperts(spec, 5) == 4);
  spec.kind = "cnn";
  CHECK(ModelExperts(spec, 5) == 1);
  spec.m = 8;
  CHECK(MakeModel<float>(spec, 3, 1)->params().size() >= 8 * 3);
  spec.kind = "toy_model";
  CHECK_THROWS_WITH(MakeModel<float>(spec, 3, 1),
                    Catch::Matchers::Contains("model.kind") &&
                        Catch::Matchers::Contains("trained by SGD: one of separate|joint|cnn"));
}

TEST_CASE(
    "An SGD family reads its parameters from the cell: the struct's defaults, or the set value",
    "[family][params]") {
  const ModelSpec plain;
  for (const char* kind : {"separate", "joint", "cnn"}) {
    INFO(kind);
    TrialSpec spec;
    spec.model.kind = kind;
    const ModelSpec defaults = ModelSpecOf(spec);
    CHECK(defaults.kind == kind);
    CHECK(defaults.m == plain.m);
    CHECK(defaults.lr == plain.lr);
    CHECK(defaults.max_steps == plain.max_steps);
    CHECK(defaults.early_stop == plain.early_stop);
    CHECK(defaults.loss == plain.loss);
    SetParam(spec, "model.lr", "0.07");
    SetParam(spec, "model.max_steps", "12");
    SetParam(spec, "model.early_stop", "false");
    SetParam(spec, "model.output_init", "sign");
    const ModelSpec read = ModelSpecOf(spec);
    CHECK(read.lr == 0.07);
    CHECK(read.max_steps == 12);
    CHECK(!read.early_stop);
    CHECK(read.output_init == "sign");
  }
  // Each family's own parameters: the router phase's for separate, the gating init for joint.
  TrialSpec separate, joint;
  joint.model.kind = "joint";
  SetParam(separate, "model.router_lr", "0.3");
  SetParam(joint, "model.sigma_g", "0.001");
  CHECK(ModelSpecOf(separate).router_lr == 0.3);
  CHECK(ModelSpecOf(joint).sigma_g == 0.001);
  // The core keeps every family parameter as its canonical text, and no other field.
  CHECK(separate.params.at("model.router_lr") == "0.3");
  SetParamValue(separate, "data.delta_r", 0.1 + 0.2);
  CHECK(DoubleParam(separate, "data.delta_r") == 0.1 + 0.2);
}

}  // namespace pmoe
