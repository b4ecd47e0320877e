// Range and consistency checks of a TrialSpec, each naming the parameter and what it expects:
// the core ones here, the rest by the cell's families (family.hpp).
#include "pmoe/core/validate.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"

namespace pmoe {
namespace {

std::string Gigabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
  return buf;
}

}  // namespace

void Require(bool ok, const TrialSpec& spec, const std::string& where, const std::string& name,
             const std::string& expected) {
  if (!ok) throw ConfigError(where, name, expected, GetParam(spec, name));
}

void ValidateSpec(const TrialSpec& spec, const std::string& where) {
  ParseSuccess(spec.success, where);
  const DataFamily& data = DataFamilyOf(spec);
  const ModelFamily& model = ModelFamilyOf(spec);
  data.Validate(spec, where);
  const DataShape shape = data.Shape(spec);
  model.Validate(spec, shape, where);
  // A cell that cannot fit in memory is refused before anything is allocated.
  const double need = EstimateTrialBytes(spec), have = PhysicalMemoryBytes();
  if (have > 0 && need > 0.8 * have)
    throw ConfigError((where.empty() ? "" : where + ": ") + "one trial would hold about " +
                      Gigabytes(need) + " of data (N = " + std::to_string(spec.N) + ", N_test = " +
                      std::to_string(spec.N_test) + ", n = " + std::to_string(shape.n) +
                      ", d = " + std::to_string(shape.d) + "), more than 80% of this machine's " +
                      Gigabytes(have) + ": lower N, N_test, data.n or data.d");
}

double EstimateTrialBytes(const TrialSpec& spec) {
  const DataShape shape = DataFamilyOf(spec).Shape(spec);
  const double samples = static_cast<double>(spec.N) + spec.N_test;
  // Patches and the generator's two pattern scores per patch, float; labels and positions.
  return 4.0 * samples * shape.n * (static_cast<double>(shape.d) + 2) + 8.0 * samples;
}

double PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * page : 0.0;
}

SuccessCriterion ParseSuccess(const std::string& text, const std::string& where) {
  SuccessCriterion c;
  if (text == "zero_train_error") {
    c.kind = SuccessCriterion::Kind::kZeroTrainError;
    return c;
  }
  for (auto [prefix, kind] : {std::pair{"test_accuracy>=", SuccessCriterion::Kind::kTestAccuracy},
                              std::pair{"router_hit>=", SuccessCriterion::Kind::kRouterHit}}) {
    const std::string p = prefix;
    if (text.compare(0, p.size(), p) != 0) continue;
    char* end = nullptr;
    const std::string number = text.substr(p.size());
    c.threshold = std::strtod(number.c_str(), &end);
    if (!number.empty() && *end == '\0' && c.threshold >= 0.0 && c.threshold <= 1.0) {
      c.kind = kind;
      return c;
    }
  }
  throw ConfigError(where, "success",
                    "test_accuracy>=X, router_hit>=X (X in [0, 1]) or zero_train_error", text);
}

}  // namespace pmoe
