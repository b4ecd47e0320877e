// Finding a spec's families in the list, and the union of their metrics.
#include "pmoe/family/family.hpp"

#include <algorithm>
#include <cstdio>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

template <typename Family>
const Family& Find(const std::vector<const Family*>& list, const std::string& name,
                   const std::string& key) {
  std::string choices;
  for (const Family* f : list) {
    if (f->name() == name) return *f;
    choices += (choices.empty() ? "" : "|") + f->name();
  }
  throw ConfigError("", key, "one of " + choices, name);
}

// Per-class metrics become one column per class (pair) up to `classes` when that exceeds two;
// binary sweeps get none of them, so their files keep their columns.
void AddMetrics(const std::vector<MetricInfo>& declared, int classes,
                std::vector<MetricInfo>& out) {
  std::vector<MetricInfo> more;
  for (const MetricInfo& m : declared) {
    if (m.per == PerClass::kNo) {
      more.push_back(m);
      continue;
    }
    if (classes <= 2) continue;
    const bool pair = m.per == PerClass::kPair;
    const int count = pair ? (classes + 1) / 2 : classes;  // RouterPairs(classes).size()
    for (int i = 0; i < count; ++i) {
      MetricInfo column = m;
      column.name = PerClassName(m.name, i);
      column.help = PerClassHelp(m.help, m.per, i);
      column.per = PerClass::kNo;
      more.push_back(column);
    }
  }
  for (const MetricInfo& m : more) {
    bool known = false;
    for (const MetricInfo& o : out) known = known || o.name == m.name;
    if (!known) out.push_back(m);
  }
}

std::string Gigabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
  return buf;
}

template <typename Family>
std::vector<FamilyParams> ParamsOf(const std::vector<const Family*>& families) {
  std::vector<FamilyParams> out;
  for (const Family* f : families)
    out.push_back({f->name(), f->reads(), f->params(), f->shared_params()});
  return out;
}

}  // namespace

std::vector<FamilyParams> DataFamilyParams() { return ParamsOf(DataFamilies()); }
std::vector<FamilyParams> ModelFamilyParams() { return ParamsOf(ModelFamilies()); }

void ValidateSpec(const TrialSpec& spec, const std::string& where) {
  ParseSuccess(spec.success, where);
  const DataFamily& data = DataFamilyOf(spec);
  const ModelFamily& model = ModelFamilyOf(spec);
  data.Validate(spec, where);
  const DataShape shape = data.Shape(spec);
  ValidateSharedParams(spec, shape, where);
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

const DataFamily& DataFamilyOf(const TrialSpec& spec) {
  return Find(DataFamilies(), spec.data.model, "data.model");
}

const ModelFamily& ModelFamilyOf(const TrialSpec& spec) {
  return Find(ModelFamilies(), spec.model.kind, "model.kind");
}

std::vector<MetricInfo> MetricsOf(const std::vector<const TrialSpec*>& specs) {
  int classes = 2;
  for (const TrialSpec* s : specs) classes = std::max(classes, DataFamilyOf(*s).Shape(*s).classes);
  std::vector<MetricInfo> out;
  for (const DataFamily* f : DataFamilies())
    for (const TrialSpec* s : specs)
      if (s->data.model == f->name()) {
        AddMetrics(f->metrics(), classes, out);
        break;
      }
  for (const ModelFamily* f : ModelFamilies())
    for (const TrialSpec* s : specs)
      if (s->model.kind == f->name()) {
        AddMetrics(f->metrics(), classes, out);
        break;
      }
  return out;
}

}  // namespace pmoe
