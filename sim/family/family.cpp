// Finding a spec's families in the list, and the union of their metrics.
#include "pmoe/family/family.hpp"

#include <algorithm>

#include "pmoe/core/errors.hpp"

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

}  // namespace

const char* ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kU64:
      return "u64";
    case ColumnType::kI64:
      return "i64";
    case ColumnType::kI32:
      return "i32";
    case ColumnType::kU8:
      return "u8";
    case ColumnType::kF64:
      return "f64";
    case ColumnType::kString:
      return "string";
    case ColumnType::kF64List:
      return "f64list";
  }
  return "?";
}

const char* StopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "none";
    case StopReason::kZeroTrainError:
      return "zero_train_error";
    case StopReason::kEpochCap:
      return "epoch_cap";
    case StopReason::kStepCap:
      return "step_cap";
    case StopReason::kDiverged:
      return "diverged";
    case StopReason::kRule:
      return "stopping_rule";
  }
  return "?";
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
