// The pivot table: cells grouped by their row and column parameters, metrics summarized as the
// summary command does (over ok trials; success over every trial, as its rate is).
#include "pmoe/analysis/pivot_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string ShortName(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every parameter name of the cells, sorted.
std::set<std::string> AllParameters(const Results& results) {
  std::set<std::string> names;
  for (const CellRecord& c : results.cells)
    for (const auto& [name, value] : c.params) names.insert(name);
  return names;
}

// A parameter as the user wrote it -> its full name; ConfigError for an unknown or ambiguous one.
std::string ResolveParameter(const Results& results, const std::string& given,
                             const std::string& option) {
  const std::set<std::string> names = AllParameters(results);
  if (names.count(given)) return given;
  if (names.count(AxisName(given))) return AxisName(given);
  std::vector<std::string> matches;
  for (const std::string& name : names)
    if (EndsWith(name, "." + given)) matches.push_back(name);
  if (matches.size() == 1) return matches[0];
  if (matches.size() > 1)
    throw ConfigError("command line: " + option + ": \"" + given + "\" is ambiguous: it may be " +
                      Join(matches, " or ") + "; write the full name");
  std::vector<std::string> swept = results.SweptParameters();
  throw ConfigError("command line: " + option + ": unknown parameter \"" + given +
                    "\": expected a parameter of the files' cells, e.g. one that varies (" +
                    (swept.empty() ? std::string("none varies") : Join(swept, ", ")) +
                    ") or any name in /cells/key (" + std::to_string(names.size()) +
                    " names, e.g. " + *names.begin() + ")");
}

bool SameValue(const std::string& a, const std::string& b) {
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double x = std::strtod(a.c_str(), &end_a), y = std::strtod(b.c_str(), &end_b);
  if (!a.empty() && !b.empty() && *end_a == '\0' && *end_b == '\0') return x == y;
  return a == b;
}

}  // namespace

Results KeepWhere(const Results& results,
                  const std::vector<std::pair<std::string, std::string>>& where) {
  std::vector<std::pair<std::string, std::string>> resolved;
  for (const auto& [given, value] : where) {
    const std::string name = ResolveParameter(results, given, "--where");
    std::vector<std::string> values;
    bool any = false;
    for (const CellRecord& c : results.cells) {
      const std::string v = c.Text(name);
      if (c.params.count(name) && SameValue(v, value)) any = true;
      if (c.params.count(name) && std::find(values.begin(), values.end(), v) == values.end())
        values.push_back(v);
    }
    if (!any)
      throw ConfigError("command line", "--where " + name,
                        "one of its values in the files (" + Join(values, ", ") + ")", value);
    resolved.emplace_back(name, value);
  }
  // A cell that does not read the parameter is the same cell at every value of it.
  Results kept = KeepCells(results, [&](const CellRecord& cell) {
    return std::all_of(resolved.begin(), resolved.end(), [&](const auto& w) {
      return !cell.params.count(w.first) || SameValue(cell.Text(w.first), w.second);
    });
  });
  if (kept.cells.empty())
    throw ConfigError("command line: no cell satisfies every --where at once");
  return kept;
}

namespace {

const char* const kBuiltinMetrics[] = {"test_acc", "train_acc", "success", "epochs", "steps"};

PivotMetric ResolveMetric(const Results& results, std::string given) {
  PivotMetric m;
  if (!given.empty() && given.back() == '%') {
    m.scale = 100;
    given.pop_back();
  }
  if (given == "test_accuracy") given = "test_acc";
  if (given == "train_accuracy") given = "train_acc";
  const bool builtin = std::find(std::begin(kBuiltinMetrics), std::end(kBuiltinMetrics), given) !=
                       std::end(kBuiltinMetrics);
  if (!builtin && results.MetricIndex(given) < 0) {
    std::vector<std::string> known(std::begin(kBuiltinMetrics), std::end(kBuiltinMetrics));
    for (const MetricColumnInfo& info : results.metrics) known.push_back(info.name);
    throw ConfigError("command line", "--metrics",
                      "one of " + Join(known, ", ") + " (a trailing % shows it times 100)",
                      given + (m.scale == 100 ? "%" : ""));
  }
  m.name = given;
  m.label = given + (m.scale == 100 ? " (%)" : "");
  return m;
}

// The trial's value of a metric, NaN when it does not count (not ok, or not recorded).
double MetricValue(const Results& results, const TrialRecord& t, const std::string& name) {
  if (name == "success") return t.success ? 1 : 0;  // a failed trial is no success
  if (t.status != 0) return NAN;
  if (name == "test_acc") return t.test_acc;
  if (name == "train_acc") return t.train_acc;
  if (name == "epochs") return t.epochs;
  if (name == "steps") return static_cast<double>(t.steps);
  return t.metrics.at(static_cast<size_t>(results.MetricIndex(name)));
}

// "gamma 0.5..3" for a _hi (or _lo) parameter whose partner is fixed, "sigma_p 2" for another
// number, the value alone for text ("switch"); nothing for a parameter the cell lacks.
std::string ValueLabel(const CellRecord& cell, const std::string& name,
                       const std::vector<std::string>& shown) {
  if (!cell.params.count(name)) return "";
  const std::string value = cell.Text(name);
  if (std::isnan(cell.Number(name))) return value;
  const std::string short_name = ShortName(name);
  for (const auto& [mine, other] : {std::pair<std::string, std::string>{"_hi", "_lo"},
                                    std::pair<std::string, std::string>{"_lo", "_hi"}}) {
    if (!EndsWith(name, mine)) continue;
    const std::string base = name.substr(0, name.size() - mine.size());
    const std::string partner = base + other;
    if (!cell.params.count(partner) ||
        std::find(shown.begin(), shown.end(), partner) != shown.end())
      continue;
    const std::string lo = mine == "_hi" ? cell.Text(partner) : value;
    const std::string hi = mine == "_hi" ? value : cell.Text(partner);
    return ShortName(base) + " " + lo + ".." + hi;
  }
  return short_name + " " + value;
}

std::string KeyLabel(const CellRecord& cell, const std::vector<std::string>& params,
                     const std::vector<std::string>& shown, const std::string& separator) {
  std::vector<std::string> parts;
  for (const std::string& p : params) {
    const std::string part = ValueLabel(cell, p, shown);
    if (!part.empty()) parts.push_back(part);
  }
  if (!parts.empty()) return Join(parts, separator);
  if (params.empty()) return "all";
  std::vector<std::string> names;  // a cell that reads none of them (the CNN has no l)
  for (const std::string& p : params) names.push_back(ShortName(p));
  return "(no " + Join(names, ", ") + ")";
}

// The index of `key` in `keys`, appended (with its label) when new.
size_t IndexOf(std::vector<std::vector<std::string>>& keys, std::vector<std::string>& labels,
               const std::vector<std::string>& key, const std::string& label) {
  const auto it = std::find(keys.begin(), keys.end(), key);
  if (it != keys.end()) return static_cast<size_t>(it - keys.begin());
  keys.push_back(key);
  labels.push_back(label);
  return keys.size() - 1;
}

std::vector<std::string> KeyOf(const CellRecord& cell, const std::vector<std::string>& params) {
  std::vector<std::string> key;
  for (const std::string& p : params) key.push_back(cell.Text(p));
  return key;
}

int Decimals(double largest, int digits) {
  if (!(largest > 0) || !std::isfinite(largest)) return std::max(0, digits - 1);
  const int d = digits - 1 - static_cast<int>(std::floor(std::log10(largest)));
  return std::clamp(d, 0, 10);
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

Pivot BuildPivot(const Results& all, const PivotSpec& spec) {
  if (all.cells.empty()) throw ConfigError("the result files hold no cell");
  const Results results = KeepWhere(all, spec.where);
  Pivot pivot;
  for (const std::string& r : spec.rows)
    pivot.row_params.push_back(ResolveParameter(results, r, "--rows"));
  for (const std::string& c : spec.cols)
    pivot.col_params.push_back(ResolveParameter(results, c, "--cols"));
  for (const std::string& r : pivot.row_params)
    if (std::count(pivot.row_params.begin(), pivot.row_params.end(), r) > 1 ||
        std::count(pivot.col_params.begin(), pivot.col_params.end(), r) > 0)
      throw ConfigError("command line: " + r +
                        " is named twice in --rows and --cols: each parameter goes to one place");
  for (const std::string& c : pivot.col_params)
    if (std::count(pivot.col_params.begin(), pivot.col_params.end(), c) > 1)
      throw ConfigError("command line: " + c + " is named twice in --cols");
  // Defaults: what varies and was not placed; model parameters across, the rest down.
  const bool rows_given = !spec.rows.empty(), cols_given = !spec.cols.empty();
  for (const std::string& p : results.SweptParameters()) {
    const bool placed = std::count(pivot.row_params.begin(), pivot.row_params.end(), p) ||
                        std::count(pivot.col_params.begin(), pivot.col_params.end(), p);
    if (placed) continue;
    const bool model = p.rfind("model.", 0) == 0;
    if (!cols_given && (rows_given || model))
      pivot.col_params.push_back(p);
    else if (!rows_given)
      pivot.row_params.push_back(p);
  }
  for (const std::string& m :
       spec.metrics.empty() ? std::vector<std::string>{"test_acc"} : spec.metrics)
    pivot.metrics.push_back(ResolveMetric(results, m));

  std::vector<std::string> shown = pivot.row_params;
  shown.insert(shown.end(), pivot.col_params.begin(), pivot.col_params.end());
  std::map<std::pair<size_t, size_t>, size_t> cell_at;  // (row, col) -> cell index
  std::vector<std::pair<size_t, size_t>> place(results.cells.size());
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellRecord& cell = results.cells[c];
    const size_t r = IndexOf(pivot.row_values, pivot.row_labels, KeyOf(cell, pivot.row_params),
                             KeyLabel(cell, pivot.row_params, shown, ", "));
    const size_t k = IndexOf(pivot.col_values, pivot.col_labels, KeyOf(cell, pivot.col_params),
                             KeyLabel(cell, pivot.col_params, shown, " "));
    const auto [it, inserted] = cell_at.insert({{r, k}, c});
    if (!inserted) {
      const CellRecord& other = results.cells[it->second];
      std::set<std::string> names;
      for (const auto& [name, v] : cell.params) names.insert(name);
      for (const auto& [name, v] : other.params) names.insert(name);
      std::vector<std::string> differ;
      for (const std::string& name : names)
        if (cell.Text(name) != other.Text(name) ||
            cell.params.count(name) != other.params.count(name))
          differ.push_back(name);
      throw ConfigError("command line: two cells fall into one table cell (row \"" +
                        pivot.row_labels[r] + "\", column \"" + pivot.col_labels[k] +
                        "\"): they differ in " + Join(differ, ", ") +
                        ", in neither --rows nor --cols; add it to one, or keep one value with "
                        "--where NAME=VALUE");
    }
    place[c] = {r, k};
  }
  pivot.cells.assign(pivot.row_values.size(), std::vector<PivotCell>(pivot.col_values.size()));
  std::vector<std::vector<std::vector<std::vector<double>>>> values(
      pivot.row_values.size(),
      std::vector<std::vector<std::vector<double>>>(
          pivot.col_values.size(), std::vector<std::vector<double>>(pivot.metrics.size())));
  for (size_t c = 0; c < results.cells.size(); ++c)
    pivot.cells[place[c].first][place[c].second].present = true;
  for (const TrialRecord& t : results.trials) {
    const auto [r, k] = place[t.cell];
    ++pivot.cells[r][k].trials;
    for (size_t m = 0; m < pivot.metrics.size(); ++m)
      values[r][k][m].push_back(MetricValue(results, t, pivot.metrics[m].name) *
                                pivot.metrics[m].scale);
  }
  for (size_t m = 0; m < pivot.metrics.size(); ++m) {
    double largest = 0;
    for (size_t r = 0; r < pivot.cells.size(); ++r)
      for (size_t k = 0; k < pivot.cells[r].size(); ++k) {
        const Moments moments = MeanSd(values[r][k][m]);
        pivot.cells[r][k].metrics.push_back(moments);
        if (moments.count > 0) largest = std::max(largest, std::fabs(moments.mean));
      }
    pivot.metrics[m].decimals = Decimals(largest, spec.digits);
  }
  return pivot;
}

Table PivotAlignedTable(const Pivot& pivot) {
  std::vector<std::string> short_rows;
  for (const std::string& p : pivot.row_params) short_rows.push_back(ShortName(p));
  std::vector<std::string> columns = {short_rows.empty() ? "" : Join(short_rows, ", "), "metric"};
  columns.insert(columns.end(), pivot.col_labels.begin(), pivot.col_labels.end());
  Table table(columns);
  for (size_t r = 0; r < pivot.row_values.size(); ++r)
    for (size_t m = 0; m < pivot.metrics.size(); ++m) {
      const PivotMetric& metric = pivot.metrics[m];
      std::vector<TableValue> row = {TableValue::Text(m == 0 ? pivot.row_labels[r] : ""),
                                     TableValue::Text(metric.label)};
      for (size_t k = 0; k < pivot.col_values.size(); ++k) {
        const PivotCell& cell = pivot.cells[r][k];
        TableValue v = TableValue::Number(NAN);  // numeric: right-aligned like numbers
        if (cell.present && cell.metrics[m].count > 0) {
          const Moments& s = cell.metrics[m];
          v.number = s.mean;
          v.text = Fixed(s.mean, metric.decimals) + " ± " + Fixed(s.sd, metric.decimals) + " (" +
                   std::to_string(s.count) +
                   (s.count == cell.trials ? "" : "/" + std::to_string(cell.trials)) + ")";
        }
        row.push_back(v);
      }
      table.Add(row);
    }
  return table;
}

Table PivotTidyTable(const Pivot& pivot) {
  std::vector<std::string> columns = pivot.row_params;
  columns.insert(columns.end(), pivot.col_params.begin(), pivot.col_params.end());
  for (const char* c : {"metric", "mean", "sd", "n", "trials"}) columns.push_back(c);
  Table table(columns);
  auto parameter = [](const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' ? TableValue::Number(v, 6) : TableValue::Text(text);
  };
  for (size_t r = 0; r < pivot.row_values.size(); ++r)
    for (size_t k = 0; k < pivot.col_values.size(); ++k) {
      const PivotCell& cell = pivot.cells[r][k];
      if (!cell.present) continue;
      for (size_t m = 0; m < pivot.metrics.size(); ++m) {
        std::vector<TableValue> row;
        for (const std::string& v : pivot.row_values[r]) row.push_back(parameter(v));
        for (const std::string& v : pivot.col_values[k]) row.push_back(parameter(v));
        const Moments& s = cell.metrics[m];
        row.push_back(
            TableValue::Text(pivot.metrics[m].name + (pivot.metrics[m].scale == 100 ? "%" : "")));
        row.push_back(TableValue::Number(s.count ? s.mean : NAN, 6));
        row.push_back(TableValue::Number(s.count ? s.sd : NAN, 6));
        row.push_back(TableValue::Number(s.count));
        row.push_back(TableValue::Number(cell.trials));
        table.Add(row);
      }
    }
  return table;
}

}  // namespace pmoe
