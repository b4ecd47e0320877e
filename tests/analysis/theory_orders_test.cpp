// The theory printed beside a fitted exponent is the bound the model family declares (written
// into the result file's /theory), read for the axis it is fitted over: MODEL.md §9's binary
// bounds over n, l, k, p; §7's multiclass bounds (appendix M) over c. Files without /theory use
// the legacy table, which must say what it always said.
#include "pmoe/analysis/theory_orders.hpp"

#include <hdf5.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "pmoe/analysis/legacy_theory_orders.hpp"
#include "pmoe/analysis/results.hpp"
#include "pmoe/family/family.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

// What the built-in families declare, as a sweep writes it into /theory.
DeclaredBounds BuiltInDeclarations() {
  DeclaredBounds declared;
  for (const ModelFamily* f : ModelFamilies())
    declared[f->name()] = {f->Bound().samples, f->Bound().multiclass, f->RatioBaseline()};
  return declared;
}

}  // namespace

TEST_CASE("Legacy table: over c appendix M's multiclass bound, its order the power of c",
          "[analysis][theory]") {
  const DeclaredBounds none;  // a file written before /theory
  CHECK(TheoryOrder(none, "separate", "data.c") == 12);
  CHECK(TheoryOrder(none, "joint", "data.c") == 8);
  CHECK(std::isnan(TheoryOrder(none, "cnn", "data.c")));
  CHECK(TheoryFormula(none, "separate", "data.c") == "c^12 l^8 p^12 delta^6 / eps^16");
  CHECK(TheoryFormula(none, "joint", "data.c") == "c^8 k^4 l^6 p^12 delta^6 / eps^16");
  // The CNN has no multiclass bound: not its binary formula, which says nothing about c.
  CHECK(TheoryFormula(none, "cnn", "data.c") == "none (appendix M bounds pMoE only)");
  CHECK(TheoryRatioFormula(none, "cnn", "separate", "data.c") ==
        "none (appendix M bounds pMoE only)");
}

TEST_CASE("Legacy table: over the binary axes MODEL.md §9's samples row", "[analysis][theory]") {
  const DeclaredBounds none;
  for (const char* axis : {"data.n", "model.l", "model.k", "data.p", "model.m"}) {
    INFO(axis);
    CHECK(TheoryFormula(none, "cnn", axis) == "n^8 p^12 delta^6 / eps^16");
    CHECK(TheoryFormula(none, "separate", axis) == "l^8 p^12 delta^6 / eps^16");
    CHECK(TheoryFormula(none, "joint", axis) == "k^4 l^6 p^12 delta^6 / eps^16");
    CHECK(TheoryRatioFormula(none, "cnn", "joint", axis) ==
          "(n^8 p^12 delta^6 / eps^16) / (k^4 l^6 p^12 delta^6 / eps^16)");
  }
  CHECK(LegacyTheoryOrder("cnn", "data.n") == 8);
  CHECK(LegacyTheoryOrder("separate", "data.n") == 0);
  CHECK(LegacyTheoryOrder("separate", "model.l") == 8);
  CHECK(std::isnan(LegacyTheoryOrder("separate", "model.k")));
  CHECK(LegacyTheoryOrder("joint", "model.k") == 4);
  CHECK(LegacyTheoryOrder("joint", "model.l") == 6);
  CHECK(LegacyTheoryOrder("cnn", "data.p") == 12);
  // Families the §9 table does not cover (Chen's) have no formula and no order.
  CHECK(TheoryFormula(none, "switch", "data.n").empty());
  CHECK(TheoryRatioFormula(none, "cnn", "switch", "data.n").empty());
  CHECK(std::isnan(TheoryOrder(none, "switch", "data.n")));
}

TEST_CASE("The built-in families' declarations give the legacy table's orders and formulas",
          "[analysis][theory][family]") {
  const DeclaredBounds declared = BuiltInDeclarations();
  const DeclaredBounds none;
  for (const char* kind : {"cnn", "separate", "joint", "switch", "single"}) {
    for (const char* axis : {"data.n", "model.l", "model.k", "data.p", "data.c", "model.m"}) {
      INFO(kind << " over " << axis);
      CHECK(TheoryFormula(declared, kind, axis) == TheoryFormula(none, kind, axis));
      CHECK(TheoryRatioFormula(declared, "cnn", kind, axis) ==
            TheoryRatioFormula(none, "cnn", kind, axis));
      const double legacy = LegacyTheoryOrder(kind, axis);
      const double read = TheoryOrder(declared, kind, axis);
      // One difference, on purpose: separate's bound has no k, so its order in k is 0 (the
      // legacy table had no entry); separate does not read model.k.
      if (std::string(kind) == "separate" && std::string(axis) == "model.k")
        CHECK(read == 0);
      else if (std::isnan(legacy))
        CHECK(std::isnan(read));
      else
        CHECK(read == legacy);
    }
  }
}

TEST_CASE("The order of an axis is read off the declared formula, whatever the family",
          "[analysis][theory]") {
  CHECK(ExponentOf("k^4 l^6 p^12 delta^6 / eps^16", "l") == 6);
  CHECK(ExponentOf("k^4 l^6 p^12 delta^6 / eps^16", "eps") == -16);
  CHECK(ExponentOf("k^4 l^6 p^12 delta^6 / eps^16", "n") == 0);
  CHECK(ExponentOf("n l^0.5", "n") == 1);
  CHECK(ExponentOf("n l^0.5", "l") == 0.5);
  CHECK(std::isnan(ExponentOf("(n l)^2", "n")));
  CHECK(std::isnan(ExponentOf("n^two", "n")));
  DeclaredBounds declared;
  declared["mine"] = {"q^3 n^2 / eps", "c^5", std::nullopt};
  CHECK(TheoryOrder(declared, "mine", "data.n") == 2);
  CHECK(TheoryOrder(declared, "mine", "model.q") == 3);
  CHECK(TheoryOrder(declared, "mine", "model.l") == 0);  // a bound variable it does not grow in
  CHECK(std::isnan(TheoryOrder(declared, "mine", "model.m")));  // a parameter it does not name
  CHECK(TheoryOrder(declared, "mine", "data.c") == 5);
  CHECK(TheoryFormula(declared, "mine", "data.c") == "c^5 q^3 n^2 / eps");
  // A declaration shadows the legacy table even under a built-in's name, and an empty one is
  // "no bound", not "ask the legacy table".
  declared["cnn"] = {"", "", std::nullopt};
  CHECK(std::isnan(TheoryOrder(declared, "cnn", "data.n")));
  CHECK(TheoryFormula(declared, "cnn", "data.n").empty());
  declared["two"] = {"n^2", "", std::nullopt};
  CHECK(TheoryFormula(declared, "two", "data.c") == "none (no multiclass bound declared)");
  CHECK(std::isnan(TheoryOrder(declared, "two", "data.c")));
}

TEST_CASE("The ratio's baseline is the kind whose family declares it, and for older files the CNN",
          "[analysis][theory]") {
  const DeclaredBounds none;  // a file written before /theory (or before ratio_baseline)
  CHECK(IsRatioBaseline(none, "cnn"));
  CHECK_FALSE(IsRatioBaseline(none, "separate"));
  const DeclaredBounds built_in = BuiltInDeclarations();
  for (const auto& [kind, bound] : built_in) {
    INFO(kind);
    CHECK(IsRatioBaseline(built_in, kind) == (kind == "cnn"));  // only the CNN declares it
  }
  DeclaredBounds declared;
  declared["linear"] = {"", "", true};  // a new baseline: the CNN is then one of the others
  declared["cnn"] = {"", "", false};
  CHECK(IsRatioBaseline(declared, "linear"));
  CHECK_FALSE(IsRatioBaseline(declared, "cnn"));
}

TEST_CASE("A file written before /theory keeps its theory columns, through the legacy table",
          "[analysis][theory]") {
  // The shipped f_ratio_n without its /theory group, as files written before it were.
  const std::string file =
      (std::filesystem::temp_directory_path() / "pmoe_theory_orders_before_theory.h5").string();
  std::filesystem::copy_file(std::string(PMOE_SOURCE_DIR) + "/results/reference/paper/f_ratio_n.h5",
                             file, std::filesystem::copy_options::overwrite_existing);
  {
    const hid_t h5 = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(h5 >= 0);
    CHECK(H5Ldelete(h5, "/theory", H5P_DEFAULT) >= 0);
    H5Fclose(h5);
  }
  CHECK(LoadResults({file}).theory.empty());  // no /theory: the legacy table answers
  const auto out =
      test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " exponent " + file + " --over n --csv");
  INFO(out.out << out.err);
  REQUIRE(out.status == 0);
  CHECK_THAT(out.out, Catch::Matchers::Contains(",4,0,l^8 p^12 delta^6 / eps^16") &&
                          Catch::Matchers::Contains(",4,8,n^8 p^12 delta^6 / eps^16") &&
                          Catch::Matchers::Contains(
                              ",4,8,(n^8 p^12 delta^6 / eps^16) / (l^8 p^12 delta^6 / eps^16)"));
  std::filesystem::remove(file);
}

}  // namespace pmoe
