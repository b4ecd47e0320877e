// Loading result files for analysis through the generic HDF5 column reader.
#include "pmoe/analysis/results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>
#include <tuple>

#include "pmoe/analysis/derived_axis.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/h5_file.hpp"
#include "pmoe/io/result_checks.hpp"

namespace pmoe {
namespace {

// The (name, type) pairs of the file's trial_columns attribute ("name:type,..."), in order.
std::vector<std::pair<std::string, std::string>> ColumnNames(const H5File& file) {
  std::vector<std::pair<std::string, std::string>> names;
  const std::string text = file.StringAttribute("/", "trial_columns").value_or("");
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const size_t colon = std::min(item.rfind(':'), item.size());
    names.emplace_back(item.substr(0, colon), colon < item.size() ? item.substr(colon + 1) : "");
    start = end + 1;
  }
  return names;
}

// A declared metric's values as doubles (HDF5 converts integers); an integer column's -1 is
// a trial that did not record it, as NaN is for a float column.
std::vector<double> MetricValues(const H5File& file, const std::string& path, bool integer) {
  std::vector<double> values = file.ReadColumn<double>(path);
  if (integer)
    for (double& v : values)
      if (v == -1) v = NAN;
  return values;
}

// Each cell's value of every parameter column of /cells (the writer stores one per parameter
// some cell reads: NaN or "" where a cell does not read it), as text like a key's ("2", "auto").
std::vector<std::pair<std::string, std::vector<std::string>>> CellParameterColumns(
    const H5File& file) {
  std::vector<std::pair<std::string, std::vector<std::string>>> columns;
  for (const std::string& name : file.List("/cells")) {
    if (name == "cell_id" || name == "key" || name == "label" || name == "success_criterion")
      continue;
    const std::string path = "/cells/" + name;
    std::vector<std::string> texts;
    if (file.IsStringColumn(path)) {
      texts = file.ReadStrings(path);
    } else {
      for (double v : file.ReadColumn<double>(path))
        texts.push_back(std::isnan(v) ? "" : FormatDouble(v));
    }
    columns.emplace_back(name, std::move(texts));
  }
  return columns;
}

// The family a parameter belongs to in a cell's parameters: its data.model for data.*, its
// model.kind for model.*.
std::string FamilyOf(const std::map<std::string, std::string>& params, const std::string& name) {
  const auto it = params.find(name.rfind("data.", 0) == 0 ? "data.model" : "model.kind");
  return it == params.end() ? "" : it->second;
}

// Keys leave out a parameter added to the families after results were recorded (data.c,
// model.loss) while it has its default, so that old cells keep their keys; the analysis puts it
// back from the file's own /cells columns, never from the simulator's parameter table. A number
// is there for a cell that reads it; an empty text is ambiguous (a default "" or not read) and
// counts as read when another cell of the same family keys that parameter.
class UnkeyedValues {
 public:
  UnkeyedValues(const H5File& file, const std::vector<std::string>& keys)
      : columns_(CellParameterColumns(file)) {
    std::vector<std::map<std::string, std::string>> cells;
    for (const std::string& key : keys) {
      const auto pairs = SplitCanonicalKey(key);
      cells.emplace_back(pairs.begin(), pairs.end());
    }
    for (const auto& [name, texts] : columns_) {
      if (texts.size() != keys.size())
        throw SchemaError(file.path() + ": /cells/" + name + " differs in length from /cells/key");
      for (const auto& params : cells)
        if (params.count(name)) keyed_by_[name].insert(FamilyOf(params, name));
    }
  }

  // Adds to `params` (the parameters of the key of cell `row`) those its key left out.
  void AddTo(size_t row, std::map<std::string, std::string>& params) const {
    for (const auto& [name, texts] : columns_) {
      if (params.count(name)) continue;
      const auto keyed = keyed_by_.find(name);
      if (!texts[row].empty() ||
          (keyed != keyed_by_.end() && keyed->second.count(FamilyOf(params, name))))
        params[name] = texts[row];
    }
  }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> columns_;
  std::map<std::string, std::set<std::string>> keyed_by_;  // families whose cells key it
};

}  // namespace

int Results::MetricIndex(const std::string& name) const {
  for (size_t i = 0; i < metrics.size(); ++i)
    if (metrics[i].name == name) return static_cast<int>(i);
  return -1;
}

double CellRecord::Number(const std::string& name) const {
  const auto it = params.find(name);
  if (it == params.end()) return NAN;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return (*end == '\0' && !it->second.empty()) ? v : NAN;
}

std::string CellRecord::Text(const std::string& name) const {
  const auto it = params.find(name);
  return it == params.end() ? "" : it->second;
}

std::vector<std::string> Results::SweptParameters() const {
  std::vector<std::string> order;
  std::map<std::string, std::set<std::string>> values;
  for (const CellRecord& c : cells)
    for (const auto& [name, value] : c.params) {
      if (!values.count(name)) order.push_back(name);
      values[name].insert(value);
    }
  std::vector<std::string> swept;
  for (const auto& name : order)
    if (values[name].size() > 1) swept.push_back(name);
  // The sweep's own axis order, as its labels spell it ("model.kind=cnn, model.l=3, N=20").
  auto position = [&](const std::string& name) {
    const size_t at = cells.empty() ? std::string::npos : cells[0].label.find(name + "=");
    return at == std::string::npos ? cells[0].label.size() + 1 : at;
  };
  std::stable_sort(swept.begin(), swept.end(), [&](const std::string& a, const std::string& b) {
    return position(a) < position(b);
  });
  return swept;
}

namespace {

// Two copies of one (seed, cell, trial) row: the same numbers, bit for bit, or not the same row.
bool SameRow(const TrialRecord& a, const TrialRecord& b) {
  auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return a.status == b.status && a.success == b.success && same(a.test_acc, b.test_acc) &&
         same(a.train_acc, b.train_acc) && a.epochs == b.epochs && a.steps == b.steps;
}

}  // namespace

Results LoadResults(const std::vector<std::string>& paths) {
  Results results;
  std::map<uint64_t, size_t> cell_index;
  // A row is a pure function of (master seed, cell, trial). Files of one seed hold copies of
  // one set of rows (shards, a merged file, a grown sweep and its older copy): a row in two of
  // them is counted once, and refused if the copies differ. Files of other seeds hold other
  // draws: pooled, their trials numbered after those of the seeds before them.
  std::vector<int64_t> seeds;                              // in order of first sight
  std::map<std::tuple<size_t, size_t, int>, size_t> seen;  // (seed, cell, trial) -> record
  std::vector<size_t> seed_of;                             // per record
  std::vector<size_t> file_of;                             // per record, into files
  for (const std::string& path : paths) {
    const H5File file = H5File::OpenReadOnly(path);
    // The same checks pmoe-sweep's reader makes (result_checks.hpp): what one refuses, so does
    // the other.
    const CheckedResult checked = ReadCheckedResult(file);
    results.files.push_back(path);
    const int64_t seed = file.IntAttribute("/", "master_seed").value_or(0);
    const size_t group = std::find(seeds.begin(), seeds.end(), seed) - seeds.begin();
    if (group == seeds.size()) seeds.push_back(seed);
    const auto& ids = checked.cell_ids;
    const auto& keys = checked.keys;
    const auto& labels = checked.labels;
    const UnkeyedValues unkeyed(file, keys);
    // The bounds the file's model families declared (/theory; none in older files), the first
    // file's where two declare one kind.
    for (size_t i = 0; i < checked.theory_kinds.size(); ++i)
      results.theory.emplace(
          checked.theory_kinds[i],
          DeclaredBound{checked.theory_samples[i], checked.theory_multiclass[i],
                        checked.theory_baseline.empty()
                            ? std::nullopt
                            : std::optional<bool>(checked.theory_baseline[i] == "true")});
    for (size_t i = 0; i < ids.size(); ++i) {
      if (cell_index.count(ids[i])) continue;
      cell_index[ids[i]] = results.cells.size();
      const auto pairs = SplitCanonicalKey(keys.at(i));
      std::map<std::string, std::string> params(pairs.begin(), pairs.end());
      unkeyed.AddTo(i, params);  // data.c = 2 of a binary cell, which its key leaves out
      results.cells.push_back({ids[i], labels.at(i), std::move(params), path});
    }
    const auto& cell = checked.cell;
    const auto& trial = checked.trial;
    const auto& status = checked.status;
    const auto& success = checked.success;
    const auto& test_acc = checked.test_acc;
    const auto& train_acc = checked.train_acc;
    const auto& epochs = checked.epochs;
    const auto& steps = checked.steps;
    const auto& zero_error = checked.zero_train_error;
    const auto& stop = checked.stop_reason;
    // The families' declared metrics, by name; a file may lack some another file has.
    std::vector<std::pair<int, std::vector<double>>> metric_values;
    for (const auto& [name, type] : ColumnNames(file)) {
      if (file.IntAttribute("/trials/" + name, "metric").value_or(0) == 0) continue;
      int index = results.MetricIndex(name);
      if (index < 0) {
        index = static_cast<int>(results.metrics.size());
        results.metrics.push_back(
            {name, file.StringAttribute("/trials/" + name, "description").value_or(""),
             file.IntAttribute("/trials/" + name, "rate").value_or(0) != 0});
      }
      metric_values.emplace_back(index, MetricValues(file, "/trials/" + name, type != "f64"));
    }
    auto same_length = [&](size_t size) {
      if (size != cell.size()) throw SchemaError(path + ": /trials columns differ in length");
    };
    for (const auto& [index, values] : metric_values) same_length(values.size());
    for (size_t r = 0; r < cell.size(); ++r) {
      const auto it = cell_index.find(cell[r]);
      if (it == cell_index.end())
        throw SchemaError(path + ": trial row " + std::to_string(r) +
                          " names a cell not in /cells");
      TrialRecord t;
      t.cell = it->second;
      t.trial = trial[r];
      t.status = status.at(r);
      t.success = success.at(r) != 0;
      t.test_acc = test_acc.at(r);
      t.train_acc = train_acc.at(r);
      t.epochs = epochs[r];
      t.steps = steps[r];
      t.zero_train_error = zero_error[r] != 0;
      t.stop_reason = stop[r];
      t.metrics.assign(results.metrics.size(), NAN);
      for (const auto& [index, values] : metric_values) t.metrics[index] = values[r];
      const auto [copy, fresh] =
          seen.emplace(std::tuple{group, t.cell, t.trial}, results.trials.size());
      if (!fresh) {
        if (SameRow(results.trials[copy->second], t)) continue;
        throw SchemaError(path + " and " + results.files[file_of[copy->second]] +
                          " both hold trial " + std::to_string(t.trial) + " of " +
                          results.cells[t.cell].label + " with seed " + std::to_string(seed) +
                          ", with other results (computed by another version or build?): "
                          "they cannot be pooled");
      }
      results.trials.push_back(t);
      seed_of.push_back(group);
      file_of.push_back(results.files.size() - 1);
    }
  }
  // Each seed's trials after the previous seeds', so that trial t of one file stays paired
  // across its cells (one data set) and no two draws share an index.
  std::vector<int> span(seeds.size(), 0), offset(seeds.size(), 0);
  for (size_t i = 0; i < results.trials.size(); ++i)
    span[seed_of[i]] = std::max(span[seed_of[i]], results.trials[i].trial + 1);
  for (size_t g = 1; g < seeds.size(); ++g) offset[g] = offset[g - 1] + span[g - 1];
  for (size_t i = 0; i < results.trials.size(); ++i) results.trials[i].trial += offset[seed_of[i]];
  // Records of an earlier file hold fewer metrics when a later one declared more; and the router
  // metrics have fields of their own.
  const int hit = results.MetricIndex("router_hit"), pos = results.MetricIndex("router_hit_pos"),
            neg = results.MetricIndex("router_hit_neg");
  for (TrialRecord& t : results.trials) {
    t.metrics.resize(results.metrics.size(), NAN);
    if (hit >= 0) t.router_hit = t.metrics[hit];
    if (pos >= 0) t.router_hit_pos = t.metrics[pos];
    if (neg >= 0) t.router_hit_neg = t.metrics[neg];
  }
  return results;
}

Results KeepCells(const Results& results, const std::function<bool(const CellRecord&)>& keep) {
  Results kept;
  kept.files = results.files;
  kept.metrics = results.metrics;
  kept.theory = results.theory;
  std::vector<long> index(results.cells.size(), -1);
  for (size_t c = 0; c < results.cells.size(); ++c) {
    if (!keep(results.cells[c])) continue;
    index[c] = static_cast<long>(kept.cells.size());
    kept.cells.push_back(results.cells[c]);
  }
  for (TrialRecord t : results.trials) {
    if (index[t.cell] < 0) continue;
    t.cell = static_cast<size_t>(index[t.cell]);
    kept.trials.push_back(t);
  }
  return kept;
}

Results KeepAxisRange(const Results& given, const std::string& requested, double lo, double hi) {
  // A derived axis (n/l): its value, in the cells that read its parameters.
  DerivedAxis derived;
  auto derive = [&] {
    try {
      return WithDerivedAxis(given, requested, &derived);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(std::string("command line: ") + e.what());
    }
  };
  const Results results = IsDerivedAxis(requested) ? derive() : given;
  const std::string axis = IsDerivedAxis(requested) ? derived.name : requested;
  return KeepCells(results, [&](const CellRecord& cell) {
    const double v = cell.Number(axis);
    return v >= lo && v <= hi;
  });
}

}  // namespace pmoe
