// Every claim declared once as the target(s) that decide it (issue 41 item 1): the [claims]
// section of a sweep config, checked against the grid when the config is read, and run by a
// [precision] section's `claim = ID` exactly as the same keys written out there would run.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/precision/claim_targets.hpp"
#include "pmoe/precision/precision_layout.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"

namespace pmoe {
namespace {

const std::string kGrid =
    "seed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
    "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 30,60\n";

const std::string kRun = "[precision]\nbudget = 120\nstart = 2\nhalf_width = 0.3\n";

SweepConfig Parse(const std::string& text) { return ParseSweepConfig("c.ini", text); }

std::string ShippedConfig(const std::string& relative) {
  std::ifstream in(std::string(PMOE_SOURCE_DIR) + "/sweeps/configs/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("A claim's declaration is read, canonical, and checked against the grid",
          "[precision][claims]") {
  RegisterPrecisionTargets();
  const SweepConfig config =
      Parse("trials = 3\n" + kGrid +
            "[claims]\nf = target=ratio_exponent over=l model=separate reading=success delta=0.1 "
            "threshold=0.2\nf.accuracy = target=accuracy_difference model=separate threshold=0.01 "
            "each=N\n");
  const std::vector<ClaimTarget> claims = ClaimTargetsOf(config);
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].id == "f");
  CHECK(ClaimTargetText(claims[0]) ==
        "target=ratio_exponent;over=model.l;model=separate;baseline=cnn;metric=;"
        "reading=success;success_threshold=0.9;target_accuracy=0.95;threshold=0.2;side=above;"
        "where=;each=");
  CHECK(claims[1].each == "N");
  CHECK(config.trials == 3);  // a declaration runs nothing: the grid's trials stand
  CHECK_FALSE(TrialsDecidedByRounds(config));

  // Each wrong declaration is refused when the config is read, naming the file and the claim.
  const auto refused = [](const std::string& claims, const std::string& says) {
    CHECK_THROWS_WITH(Parse(kGrid + "[claims]\n" + claims),
                      Catch::Contains("c.ini") && Catch::Contains(says));
  };
  refused("b = target=exponent over=l model=joint\n", "[claims] b");          // no joint cell
  refused("b = target=exponent over=l\n", "name the one");                    // two kinds pooled
  refused("b = target=exponent over=l model=separate budget=9\n", "budget");  // a run key
  refused("b = over=l model=separate\n", "needs target=");
  refused("b = target=exponent model=separate\n", "needs over");
  refused("b = target=exponent over l\n", "is not key=value");
  refused("b = target=rate metric=router_hit model=separate each=l\n", "each");
  refused("b = target=exponent over=l model=separate where=data.p=3\n", "where");
  refused(
      "b = target=exponent over=l model=separate\nb = target=exponent over=l "
      "model=separate\n",
      "set twice");
  refused("b! = target=exponent over=l model=separate\n", "claim id");
  // Per N: laid out at each N, so a rate of one cell per group is fine, and pooled N are not.
  CHECK_NOTHROW(Parse(kGrid + "[claims]\ng = target=rate metric=router_hit model=separate "
                              "threshold=0.9 each=N\n"));
  refused("g = target=rate metric=router_hit model=separate threshold=0.9\n", "[claims] g");
}

TEST_CASE("[precision] claim = ID runs the declaration as the keys written out would",
          "[precision][claims]") {
  RegisterPrecisionTargets();
  const std::string declared =
      "target=ratio_exponent over=l model=separate reading=success delta=0.1 threshold=0.2";
  const SweepConfig by_claim =
      Parse(kGrid + "[claims]\nf = " + declared + "\n" + kRun + "claim = f\n");
  const SweepConfig written = Parse(kGrid + kRun +
                                    "target = ratio_exponent\nover = l\nmodel = separate\n"
                                    "reading = success\ndelta = 0.1\nthreshold = 0.2\n");
  REQUIRE(PrecisionOf(by_claim) != nullptr);
  CHECK(PrecisionIdentity(*PrecisionOf(by_claim)) == PrecisionIdentity(*PrecisionOf(written)));
  CHECK(by_claim.trials == written.trials);

  // One declaration: the section may not state the statistic again.
  CHECK_THROWS_WITH(
      Parse(kGrid + "[claims]\nf = " + declared + "\n" + kRun + "claim = f\nthreshold = 0.3\n"),
      Catch::Contains("state it there once"));
  CHECK_THROWS_WITH(Parse(kGrid + "[claims]\nf = " + declared + "\n" + kRun + "claim = g\n"),
                    Catch::Contains("one of the declared claims: f"));
  CHECK_THROWS_WITH(Parse(kGrid + kRun + "claim = f\n"), Catch::Contains("this config has none"));
  CHECK_THROWS_WITH(
      Parse(kGrid + "[claims]\na = target=accuracy_difference model=separate each=N\n" + kRun +
            "claim = a\n"),
      Catch::Contains("where=N="));
}

TEST_CASE("The shipped precision configs run their claims' declarations, and f over n lays out",
          "[precision][claims]") {
  RegisterPrecisionTargets();
  // b_separate_l_precision.ini: claim = b gives the target the reference file was grown by (its
  // identity then named no model: the grid has one kind).
  const SweepConfig b = ParseSweepConfig("b.ini", ShippedConfig("b_separate_l_precision.ini"));
  REQUIRE(PrecisionOf(b) != nullptr);
  CHECK(PrecisionIdentity(*PrecisionOf(b)) ==
        "target=exponent;over=model.l;reading=success;success_threshold=0.9;"
        "target_accuracy=0.95;threshold=0.2;half_width=0.15;where=;alpha=0.05;budget=8500;"
        "start=20;looks=4;bootstrap=1000;allocation_bootstrap=200;uniform_share=0;seed=1;"
        "model=separate;allocation=cost");
  // f_ratio_n.ini: Lemma 4.1's router sample follows n; it names no group, so the ratio over n
  // is one target with a curve over the four n (it was one target per n, none with a slope).
  const SweepConfig f = ParseSweepConfig("f.ini", ShippedConfig("paper/f_ratio_n.ini"));
  const std::vector<ClaimTarget> claims = ClaimTargetsOf(f);
  REQUIRE(claims.size() == 2);
  std::vector<CellParams> cells;
  for (const Cell& c : ExpandGrid(f)) cells.push_back(ParseCanonicalKey(c.key));
  const std::vector<PrecisionGroup> groups = LayoutTargets(cells, claims[0].config, "f.ini");
  REQUIRE(groups.size() == 1);
  std::set<double> axis;
  for (const CurveCell& place : groups[0].curve) axis.insert(place.axis);
  CHECK(axis == std::set<double>{8, 16, 32, 64});
}

}  // namespace pmoe
