// Generated from the parameter table (no parameter listed by hand): every numeric parameter at
// its declared limits and one past them, at its C++ type's limits and one past them, and in
// spellings that are not numbers. Accepted values must survive validation without a crash or an
// allocation that cannot succeed; refused ones are refused by name with the accepted range.
#include <catch2/catch.hpp>
#include <cfloat>
#include <climits>
#include <string>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/family.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

// A spec whose families read `p` (its first reader), so that the value matters to validation.
TrialSpec ReaderSpec(const ParamInfo& p) {
  TrialSpec spec;
  if (p.core || p.readers.empty()) return spec;
  const std::string& family = p.readers.front();
  if (p.name.rfind("data.", 0) == 0)
    SetParam(spec, "data.model", family, "test");
  else
    SetParam(spec, "model.kind", family, "test");
  return spec;
}

// One past a decimal integer's text, computed on the text so that it can pass any C++ type.
std::string PlusOne(long long v) {
  if (v == LLONG_MAX) return "9223372036854775808";
  return std::to_string(v + 1);
}
std::string MinusOne(long long v) {
  if (v == LLONG_MIN) return "-9223372036854775809";
  return std::to_string(v - 1);
}

// Validation (and the data family's feasibility check) of a spec holding an accepted value ends
// in success or in one of the user-facing errors, never in a crash or std::bad_alloc.
void ValidateWithoutCrash(const TrialSpec& spec) {
  try {
    ValidateSpec(spec, "test");
    DataFamilyOf(spec).Make(spec, /*data_seed=*/0);
  } catch (const ConfigError&) {
  } catch (const InfeasibleError&) {
  } catch (const SchemaError&) {
  }
}

const std::vector<std::string> kNotIntegers = {"",    " ",   "1.5",   "1e3", "0x10", "+",     "-",
                                               "--1", "1 2", "5junk", "nan", "inf",  "1,000", "\t"};
const std::vector<std::string> kNotNumbers = {"",      " ",        "nan",   "NaN",    "inf",
                                              "-inf",  "infinity", "1e309", "-1e309", "0x",
                                              "1.5.2", "1,5",      "e5"};

}  // namespace

TEST_CASE("Every integer parameter takes its limits and refuses one past them, by name",
          "[params][limits]") {
  size_t checked = 0;
  for (const ParamInfo& p : ParamTable()) {
    if (p.type != ParamType::kInt) continue;
    INFO(p.name << " in " << p.min << ".." << p.max);
    REQUIRE(p.min <= p.max);
    const std::string range = std::to_string(p.min) + ".." + std::to_string(p.max);
    for (const long long v : {p.min, p.max}) {
      TrialSpec spec = ReaderSpec(p);
      REQUIRE_NOTHROW(SetParam(spec, p.name, std::to_string(v), "test"));
      CHECK(GetParam(spec, p.name) == std::to_string(v));
      ValidateWithoutCrash(spec);
      ++checked;
    }
    // One past the declared range, the limits of int and long long and one past them, and the
    // values that used to wrap (4294967296 read as 0 trials, 4294967297 as 1).
    std::vector<std::string> outside = {MinusOne(p.min), PlusOne(p.max)};
    for (const std::string& v :
         {std::string("2147483647"), std::string("2147483648"), std::string("-2147483648"),
          std::string("-2147483649"), std::string("4294967296"), std::string("4294967297"),
          std::to_string(LLONG_MAX), std::string("9223372036854775808"), std::to_string(LLONG_MIN),
          std::string("-9223372036854775809"), std::string("18446744073709551617")}) {
      const bool inside = v.size() < 20 && std::stold(v) >= p.min && std::stold(v) <= p.max;
      if (!inside) outside.push_back(v);
    }
    for (const std::string& v : outside) {
      INFO(v);
      TrialSpec spec = ReaderSpec(p);
      const std::string before = GetParam(spec, p.name);
      CHECK_THROWS_WITH(
          SetParam(spec, p.name, v, "where.ini"),
          Contains("where.ini") && Contains(p.name + " = \"" + v + "\"") && Contains(range));
      CHECK(GetParam(spec, p.name) == before);  // nothing half-assigned
      ++checked;
    }
    for (const std::string& v : kNotIntegers) {
      INFO("\"" << v << "\"");
      TrialSpec spec = ReaderSpec(p);
      CHECK_THROWS_AS(SetParam(spec, p.name, v, "where.ini"), ConfigError);
      ++checked;
    }
  }
  CHECK(checked > 100);  // the table has integer parameters, and all were reached
}

TEST_CASE("Every real parameter takes the double limits or refuses them, never a non-finite value",
          "[params][limits]") {
  size_t checked = 0;
  for (const ParamInfo& p : ParamTable()) {
    if (p.type != ParamType::kDouble) continue;
    INFO(p.name);
    // The type's limits parse (whether a family accepts them is its Validate's business, which
    // must then refuse them by name rather than fail later).
    for (const std::string& v :
         {std::string("1.7976931348623157e308"), std::string("-1.7976931348623157e308"),
          std::string("2.2250738585072014e-308"), std::string("0")}) {
      INFO(v);
      TrialSpec spec = ReaderSpec(p);
      REQUIRE_NOTHROW(SetParam(spec, p.name, v, "test"));
      ValidateWithoutCrash(spec);
      ++checked;
    }
    // One past them: overflow to infinity, and underflow below the smallest normal double.
    for (const std::string& v : {std::string("1.7976931348623159e308"), std::string("-1.8e308"),
                                 std::string("4.9e-324"), std::string("1e-320")}) {
      INFO(v);
      TrialSpec spec = ReaderSpec(p);
      CHECK_THROWS_WITH(SetParam(spec, p.name, v, "where.ini"),
                        Contains("where.ini") && Contains(p.name));
      ++checked;
    }
    for (const std::string& v : kNotNumbers) {
      INFO("\"" << v << "\"");
      TrialSpec spec = ReaderSpec(p);
      CHECK_THROWS_AS(SetParam(spec, p.name, v, "where.ini"), ConfigError);
      ++checked;
    }
  }
  CHECK(checked > 50);
}

TEST_CASE("Run options share the checked integer parser", "[params][limits]") {
  CHECK(ParseIntegerInRange("f.ini", "trials", "10000000", 1, kMaxTrials) == kMaxTrials);
  for (const std::string v : {"10000001", "0", "2147483648", "4294967296", "4294967297",
                              "9223372036854775808", "1.5", "1e3", "", "3x"})
    CHECK_THROWS_WITH(
        ParseIntegerInRange("f.ini", "trials", v, 1, kMaxTrials),
        Contains("f.ini: trials = \"" + v + "\": expected an integer in 1..10000000"));
}

}  // namespace pmoe
