// The parameter table: values round-trip as text, bad text is refused naming the key.
#include "pmoe/core/param_table.hpp"

#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"

namespace pmoe {

TEST_CASE("Every parameter round-trips through its canonical text", "[params]") {
  TrialSpec spec;
  for (const ParamInfo& p : ParamTable()) {
    TrialSpec copy;
    SetParam(copy, p.name, p.get(spec), "test");
    CHECK(p.get(copy) == p.get(spec));
  }
  SetParam(spec, "data.delta_r", "0.55", "test");
  CHECK(DoubleParam(spec, "data.delta_r") == 0.55);
  CHECK(GetParam(spec, "data.delta_r") == "0.55");
}

TEST_CASE("Doubles print as the shortest text that parses back exactly", "[params]") {
  CHECK(FormatDouble(0.2) == "0.2");
  CHECK(FormatDouble(1e-4) == "0.0001");
  CHECK(FormatDouble(10) == "10");
  CHECK(FormatDouble(150) == "150");
  CHECK(FormatDouble(1e30) == "1e+30");
  CHECK(FormatDouble(1.0 / 3) == "0.3333333333333333");
  CHECK(std::stod(FormatDouble(0.1 + 0.2)) == 0.1 + 0.2);
}

TEST_CASE("Bad parameter text names the file key value and expected form", "[params]") {
  TrialSpec spec;
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(SetParam(spec, "data.n", "1.5", "a.ini"),
                    Contains("a.ini") && Contains("data.n = \"1.5\"") && Contains("an integer"));
  CHECK_THROWS_WITH(SetParam(spec, "model.kind", "mlp", "a.ini"), Contains("separate|joint|cnn"));
  CHECK_THROWS_WITH(SetParam(spec, "model.early_stop", "maybe", ""), Contains("true or false"));
  CHECK_THROWS_WITH(SetParam(spec, "data.nn", "3", "a.ini"), Contains("unknown parameter"));
}

TEST_CASE("Canonical keys list a section's parameters in table order", "[params]") {
  const TrialSpec spec;
  const std::string key = CanonicalKey(spec, "data.");
  CHECK(key.rfind("data.model=pattern;data.labels=iid;data.n=16;data.d=64;", 0) == 0);
  CHECK(key.find("model.kind") == std::string::npos);
}

}  // namespace pmoe
