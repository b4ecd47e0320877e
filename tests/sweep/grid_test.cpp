// Grid expansion: the cartesian product in a fixed order, stable cell ids, every cell validated
// before anything runs, and a cost model that orders cells sensibly.
#include "pmoe/sweep/grid/grid.hpp"

#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"
#include "pmoe/family/family.hpp"

namespace pmoe {

TEST_CASE("A grid is the product of its axes with the last varying fastest", "[sweep][grid]") {
  const SweepConfig config =
      ParseSweepConfig("g.ini",
                       "name = g\nseed = 3\ntrials = 5\nN = 200\n[model]\nkind = separate\n"
                       "[grid]\nmodel.l = 1:3\nN = 100,400\nmodel.kind = separate,cnn\n");
  CHECK(config.name == "g");
  CHECK(config.seed == 3);
  CHECK(config.trials == 5);
  const std::vector<Cell> cells = ExpandGrid(config);
  // The CNN reads no model.l: its cells come once per N, at the first l, without l in the label.
  REQUIRE(cells.size() == 3 * 2 + 2);
  CHECK(cells[0].label == "model.l=1, N=100, model.kind=separate");
  CHECK(cells[1].label == "N=100, model.kind=cnn");
  CHECK(cells[2].label == "model.l=1, N=400, model.kind=separate");
  CHECK(cells[3].label == "N=400, model.kind=cnn");
  CHECK(cells[4].label == "model.l=2, N=100, model.kind=separate");
  CHECK(IntParam(cells[7].spec, "model.l") == 3);
  CHECK(cells[7].spec.N == 400);
  CHECK(cells[7].spec.model.kind == "separate");
  // Ids are hashes of the full canonical key: the same in another run or another file.
  const std::vector<Cell> again = ExpandGrid(config);
  for (size_t i = 0; i < cells.size(); ++i) CHECK(cells[i].id == again[i].id);
}

TEST_CASE("Invalid or infeasible cells are refused before anything runs", "[sweep][grid]") {
  using Catch::Matchers::Contains;
  auto refusal = [](const std::string& text) {
    try {
      ExpandGrid(ParseSweepConfig("bad.ini", text));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refusal("[grid]\nmodel.l = 1:17\n"),
             Contains("bad.ini (cell model.l=17)") && Contains("1..n (n = 16)"));
  CHECK_THAT(refusal("[grid]\ndata.delta_r = 0.2,0.6\n"),
             Contains("cell data.delta_r=0.2") && Contains("infeasible data model"));
  CHECK_THAT(refusal("[grid]\nmodel.l = 2,2\n"), Contains("are the same cell"));
  CHECK_THAT(refusal("[grid]\nmodel.l = 1.5\n"), Contains("model.l = \"1.5\""));
  CHECK_THAT(refusal("[model]\nwidth = 3\n"), Contains("unknown key \"model.width\""));
  CHECK_THAT(refusal("trials = 0\n"), Contains("trials = \"0\""));
}

TEST_CASE("Estimated cost grows with N and with the patches each neuron sees", "[sweep][grid]") {
  TrialSpec small, large, cnn;
  large.N = 4 * small.N;
  cnn.model.kind = "cnn";
  CHECK(EstimateTrialSeconds(large) > 2 * EstimateTrialSeconds(small));
  CHECK(EstimateTrialSeconds(cnn) > EstimateTrialSeconds(small));
  CHECK(EstimateTrialBytes(large) > EstimateTrialBytes(small));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("Per-model sections override parameters of that model's cells only", "[sweep][grid]") {
  const SweepConfig config =
      ParseSweepConfig("o.ini",
                       "[model]\nm = 40\n[model.joint]\nk = 8\nl = 6\n[model.separate]\nl = 4\n"
                       "[grid]\nmodel.kind = separate,joint,cnn\n");
  const std::vector<Cell> cells = ExpandGrid(config);
  REQUIRE(cells.size() == 3);
  CHECK(IntParam(cells[0].spec, "model.k") == 2);
  CHECK(IntParam(cells[0].spec, "model.l") == 4);
  CHECK(IntParam(cells[1].spec, "model.k") == 8);
  CHECK(IntParam(cells[1].spec, "model.l") == 6);
  CHECK(IntParam(cells[2].spec, "model.k") == 2);
  CHECK_THROWS_WITH(ParseSweepConfig("o.ini", "[model.joint]\nk = eight\n"),
                    Catch::Matchers::Contains("model.k = \"eight\""));
}

}  // namespace pmoe

#include "pmoe/trial/trial.hpp"

namespace pmoe {

TEST_CASE("An axis of a [grid.KIND] section applies to that model's cells only", "[sweep][grid]") {
  // Joint pMoE over l; separate pMoE at its fixed l = 4 and the CNN alongside, each once per N.
  const SweepConfig config =
      ParseSweepConfig("k.ini",
                       "[model]\nl = 4\n[model.joint]\nk = 8\n"
                       "[grid]\nmodel.kind = separate,joint,cnn\nN = 100,200\n"
                       "[grid.joint]\nmodel.l = 2,6,10\n");
  const std::vector<Cell> cells = ExpandGrid(config);
  REQUIRE(cells.size() == 2 + 2 * 3 + 2);
  int separate = 0, joint = 0, cnn = 0;
  for (const Cell& c : cells) {
    if (c.spec.model.kind == "separate") {
      ++separate;
      CHECK(IntParam(c.spec, "model.l") == 4);
      CHECK(c.label.find("model.l") == std::string::npos);
    } else if (c.spec.model.kind == "joint") {
      ++joint;
      CHECK(c.label.find("model.l=") != std::string::npos);
    } else {
      ++cnn;
    }
  }
  CHECK(separate == 2);
  CHECK(joint == 6);
  CHECK(cnn == 2);
  // Pairing kept: trial t of every cell sees the same data set whatever its model or l.
  for (const Cell& c : cells)
    for (int t : {0, 3})
      CHECK(DeriveSeeds(1, c.spec, t).data == DeriveSeeds(1, cells[0].spec, t).data);
}

TEST_CASE("A [grid.KIND] axis is refused where it cannot apply", "[sweep][grid]") {
  using Catch::Matchers::Contains;
  auto refusal = [](const std::string& text) {
    try {
      ExpandGrid(ParseSweepConfig("r.ini", text));
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(refusal("[grid]\nmodel.kind = separate,cnn\n[grid.joint]\nmodel.l = 2,4\n"),
             Contains("[grid.joint] model.l") && Contains("no cell of this sweep is a joint"));
  CHECK_THAT(refusal("[grid]\nmodel.kind = separate,cnn\n[grid.cnn]\nmodel.l = 2,4\n"),
             Contains("[grid.cnn] model.l") && Contains("cnn model that reads model.l"));
  CHECK_THAT(refusal("[model.joint]\nl = 6\n[grid]\nmodel.kind = separate,joint\n"
                     "[grid.joint]\nmodel.l = 2,4\n"),
             Contains("both set it for joint cells"));
  CHECK_THAT(refusal("[grid]\nmodel.l = 1:3\n[grid.joint]\nmodel.l = 2,4\n"),
             Contains("already an axis"));
  CHECK_THAT(refusal("[grid.joint]\nmodel.kind = joint\n"), Contains("cannot be restricted"));
}

}  // namespace pmoe
