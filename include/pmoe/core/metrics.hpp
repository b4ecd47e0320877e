// What a trial measures beyond the core columns: each family declares its metrics (name, type,
// meaning, whether it is a rate to plot against N) and fills a Metrics bag with their values.
// The sweep engine stores a metric as a /trials column of its declared type, absent values as
// NaN (floats) or -1 (integers). A list metric (kF64List: dispatch counts, a curve along training)
// holds any number of values per trial: /trials/NAME stores each trial's count and
// /trial_lists/NAME all the values, trial after trial (result_file.hpp).
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace pmoe {

// How a value is stored: in the journal's rows and as an HDF5 column.
enum class ColumnType { kU64, kI64, kI32, kU8, kF64, kString, kF64List };

// "u64", "i64", "i32", "u8", "f64", "string", "f64list"
const char* ColumnTypeName(ColumnType type);

// A metric with one value per class (or per trained class pair, MODEL.md §7) is declared once;
// MetricsOf expands it into the columns name0, name1, ... up to the largest class (pair) count
// of the cells at hand, when some cell has more than two classes. Each column is then an
// ordinary metric: analysis and plots show it like any other. A trial sets the columns of its
// own classes; the others stay absent (NaN, or -1 for integers).
enum class PerClass { kNo, kClass, kPair };

struct MetricInfo {
  std::string name;  // the /trials column, e.g. "router_hit"; the columns' prefix when per class
  ColumnType type = ColumnType::kF64;
  std::string help;   // one line, stored as the column's description
  bool rate = false;  // a fraction in [0, 1] that analysis summarizes and plots against N
  PerClass per = PerClass::kNo;
};

// The column of class (or pair) `index` of a per-class metric: "accuracy_class" ->
// "accuracy_class3".
inline std::string PerClassName(const std::string& name, int index) {
  return name + std::to_string(index);
}

// That column's description: the declared help and " (class 3)", or " (class pair 3)" for a
// per-pair metric. Name and description together mark a per-class column in a result file: the
// plots find the declared per-class metrics by them (analysis/plots/analyze.py), whatever their
// names, and draw one line per class.
inline std::string PerClassHelp(const std::string& help, PerClass per, int index) {
  return help + (per == PerClass::kPair ? " (class pair " : " (class ") + std::to_string(index) +
         ")";
}

// A trial's metric values by name, in the order they were set. Every value is a double:
// integers up to 2^53 are exact.
class Metrics {
 public:
  void Set(const std::string& name, double value) {
    for (auto& [n, v] : values_)
      if (n == name) {
        v = value;
        return;
      }
    values_.emplace_back(name, value);
  }
  // NaN when the trial did not record `name`.
  double Get(const std::string& name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return v;
    return NAN;
  }
  bool Has(const std::string& name) const {
    for (const auto& [n, v] : values_)
      if (n == name) return true;
    return false;
  }
  const std::vector<std::pair<std::string, double>>& values() const { return values_; }

  // List metrics (kF64List), apart from the scalars: an absent list reads as empty.
  void SetList(const std::string& name, std::vector<double> list) {
    for (auto& [n, v] : lists_)
      if (n == name) {
        v = std::move(list);
        return;
      }
    lists_.emplace_back(name, std::move(list));
  }
  const std::vector<double>& GetList(const std::string& name) const {
    static const std::vector<double> kEmpty;
    for (const auto& [n, v] : lists_)
      if (n == name) return v;
    return kEmpty;
  }
  bool HasList(const std::string& name) const {
    for (const auto& [n, v] : lists_)
      if (n == name) return true;
    return false;
  }
  const std::vector<std::pair<std::string, std::vector<double>>>& lists() const { return lists_; }

 private:
  std::vector<std::pair<std::string, double>> values_;
  std::vector<std::pair<std::string, std::vector<double>>> lists_;
};

}  // namespace pmoe
