// Loading result files for analysis through the generic HDF5 column reader.
#include "pmoe/analysis/results.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/h5_file.hpp"

namespace pmoe {
namespace {

template <typename T>
std::vector<T> Column(const H5File& file, const std::string& name) {
  if (!file.Exists(name)) throw SchemaError(file.path() + ": no column " + name);
  return file.ReadColumn<T>(name);
}

}  // namespace

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

Results LoadResults(const std::vector<std::string>& paths) {
  Results results;
  std::map<uint64_t, size_t> cell_index;
  std::set<std::pair<size_t, int>> seen;
  for (const std::string& path : paths) {
    const H5File file = H5File::OpenReadOnly(path);
    const auto version = file.IntAttribute("/", "schema_version");
    if (!version || *version != 1)
      throw SchemaError(path + ": not a pmoe-sweep result file of schema version 1");
    results.files.push_back(path);
    const auto ids = Column<uint64_t>(file, "/cells/cell_id");
    const auto keys = file.ReadStrings("/cells/key");
    const auto labels = file.ReadStrings("/cells/label");
    for (size_t i = 0; i < ids.size(); ++i) {
      if (cell_index.count(ids[i])) continue;
      cell_index[ids[i]] = results.cells.size();
      const auto pairs = SplitCanonicalKey(keys.at(i));
      results.cells.push_back({ids[i], labels.at(i), {pairs.begin(), pairs.end()}, path});
    }
    const auto cell = Column<uint64_t>(file, "/trials/cell_id");
    const auto trial = Column<int32_t>(file, "/trials/trial");
    const auto status = Column<uint8_t>(file, "/trials/status");
    const auto success = Column<uint8_t>(file, "/trials/success");
    const auto test_acc = Column<double>(file, "/trials/test_acc");
    const auto train_acc = Column<double>(file, "/trials/train_acc");
    const auto hit = Column<double>(file, "/trials/router_hit");
    const auto hit_pos = Column<double>(file, "/trials/router_hit_pos");
    const auto hit_neg = Column<double>(file, "/trials/router_hit_neg");
    const auto epochs = Column<int32_t>(file, "/trials/epochs");
    for (const auto* column_size : {&trial, &epochs})
      if (column_size->size() != cell.size())
        throw SchemaError(path + ": /trials columns differ in length");
    for (size_t r = 0; r < cell.size(); ++r) {
      const auto it = cell_index.find(cell[r]);
      if (it == cell_index.end())
        throw SchemaError(path + ": trial row " + std::to_string(r) + " names a cell not in /cells");
      if (!seen.insert({it->second, trial[r]}).second) continue;
      TrialRecord t;
      t.cell = it->second;
      t.trial = trial[r];
      t.status = status.at(r);
      t.success = success.at(r) != 0;
      t.test_acc = test_acc.at(r);
      t.train_acc = train_acc.at(r);
      t.router_hit = hit.at(r);
      t.router_hit_pos = hit_pos.at(r);
      t.router_hit_neg = hit_neg.at(r);
      t.epochs = epochs[r];
      results.trials.push_back(t);
    }
  }
  return results;
}

Results KeepAxisRange(const Results& results, const std::string& axis, double lo, double hi) {
  Results kept;
  kept.files = results.files;
  std::vector<long> new_index(results.cells.size(), -1);
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const double v = results.cells[c].Number(axis);
    if (!(v >= lo && v <= hi)) continue;
    new_index[c] = static_cast<long>(kept.cells.size());
    kept.cells.push_back(results.cells[c]);
  }
  for (TrialRecord t : results.trials) {
    if (new_index[t.cell] < 0) continue;
    t.cell = static_cast<size_t>(new_index[t.cell]);
    kept.trials.push_back(t);
  }
  return kept;
}

std::string AxisName(const std::string& name) {
  static const std::map<std::string, std::string> shorts = {
      {"l", "model.l"}, {"k", "model.k"}, {"m", "model.m"}, {"n", "data.n"}, {"d", "data.d"},
      {"p", "data.p"}, {"l_star", "data.l_star"}, {"kind", "model.kind"}};
  const auto it = shorts.find(name);
  return it == shorts.end() ? name : it->second;
}

}  // namespace pmoe
