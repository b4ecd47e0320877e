// The [precision] section as the sweep engine sees it: registered (the test binary's main calls
// RegisterPrecisionTargets, as pmoe-sweep's does), never named, and still the section it was.
#include "pmoe/precision/precision_section.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"
#include "pmoe/precision/precision_source.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"

namespace pmoe {
namespace {

const char* kTarget =
    "seed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
    "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 30,60\n"
    "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\nbudget = 120\nstart = 2\n";

}  // namespace

TEST_CASE("A precision section reaches the runner through the section registered with the engine",
          "[precision][section]") {
  RegisterPrecisionTargets();  // again: replaces, never adds a second [precision]
  const std::vector<std::string> sections = RegisteredSections();
  CHECK(std::count(sections.begin(), sections.end(), "precision") == 1);

  SweepSetup setup;
  setup.config = ParseSweepConfig("target.ini", kTarget);
  const PrecisionConfig* precision = PrecisionOf(setup.config);
  REQUIRE(precision != nullptr);
  CHECK(OverText(*precision) == "model.l");
  CHECK(TrialsDecidedByRounds(setup.config));
  CHECK(setup.config.trials == 120);  // the budget: the most one cell may get
  setup.cells = ExpandGrid(setup.config);
  const std::unique_ptr<WorkSource> source = MakeWorkSource(setup);
  CHECK(dynamic_cast<const PrecisionSource*>(source.get()) != nullptr);
  CHECK(MetaFor(setup, "").precision == PrecisionIdentity(*precision));

  CHECK(PrecisionOf(ParseSweepConfig("grid.ini", "[grid]\nN = 30,60\n")) == nullptr);
  CHECK_THROWS_WITH(ParseSweepConfig("t.ini", "trials = 4\n" + std::string(kTarget)),
                    Catch::Contains("a precision target decides its trials itself"));
  CHECK_THROWS_WITH(ParseSweepConfig("t.ini", "bugdet = 4\n" + std::string(kTarget)),
                    Catch::Contains("an [adaptive] or a [precision] setting"));
}

}  // namespace pmoe
