// Grouping a sweep's cells into precision targets and placing them on their curves.
#include "pmoe/precision/precision_layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "pmoe/core/axis_name.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/stats/target_kind.hpp"

namespace pmoe {
namespace {

double Number(const CellParams& p, const std::string& name) {
  auto it = p.find(name);
  if (it == p.end()) return NAN;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end == it->second.c_str() + it->second.size() ? v : NAN;
}

// The axis value of a cell that has every axis parameter; NaN otherwise; 1 for a target that
// reads no axis (one point per model and N).
double AxisOf(const CellParams& p, const PrecisionConfig& c) {
  if (c.over.empty()) return 1;
  double v = Number(p, c.over[0]);
  if (c.over.size() == 2) v /= Number(p, c.over[1]);
  return v;
}

bool IsAxisOrN(const std::string& name, const PrecisionConfig& c) {
  return name == "N" || (!c.over.empty() && name == c.over[0]) ||
         (c.over.size() == 2 && name == c.over[1]);
}

// The group of a cell: its parameters but N, the axis and (when paired) the baseline's kind,
// restricted to the parameters that vary across the sweep (`naming`: varying, not set per kind).
std::string GroupKey(const CellParams& p, const PrecisionConfig& c,
                     const std::set<std::string>& naming) {
  std::string key;
  for (const auto& [name, value] : p)
    if (naming.count(name) && !IsAxisOrN(name, c))
      key += (key.empty() ? "" : ", ") + name + "=" + value;
  return key.empty() ? "all" : key;
}

// The varying parameters that follow the axis: one value at each axis value, several over the
// axis (Lemma 4.1's router sample, set from n, over n). They name no group, or each group would
// hold one axis value and no curve; pmoe-analyze's series drop them alike (analysis/lib/series.cpp,
// FollowsAxis). The model kind never follows: its curves must never merge.
std::set<std::string> AxisFollowers(const std::vector<CellParams>& cells, const PrecisionConfig& c,
                                    const std::set<std::string>& varying) {
  std::set<std::string> following;
  if (c.over.empty()) return following;
  for (const std::string& name : varying) {
    if (name == "model.kind" || IsAxisOrN(name, c)) continue;
    std::map<double, std::string> value_at;
    std::set<std::string> values;
    bool follows = true;
    for (const CellParams& p : cells) {
      auto it = p.find(name);
      const double x = p.empty() ? NAN : AxisOf(p, c);
      if (it == p.end() || !std::isfinite(x)) continue;
      const auto [at, fresh] = value_at.emplace(x, it->second);
      follows = follows && (fresh || at->second == it->second);
      values.insert(it->second);
    }
    if (follows && value_at.size() >= 2 && values.size() >= 2) following.insert(name);
  }
  return following;
}

}  // namespace

CellParams ParseCanonicalKey(const std::string& key) {
  CellParams p;
  size_t start = 0;
  while (start < key.size()) {
    const size_t end = std::min(key.find(';', start), key.size());
    const std::string part = key.substr(start, end - start);
    const size_t eq = part.find('=');
    if (eq != std::string::npos) p[part.substr(0, eq)] = part.substr(eq + 1);
    start = end + 1;
  }
  return p;
}

// The cell passes the config's `where`: every named parameter it reads has the value asked.
bool Selected(const CellParams& p, const PrecisionConfig& c) {
  for (const auto& [param, value] : c.where) {
    auto it = p.find(param);
    if (it != p.end() && it->second != value) return false;
  }
  return true;
}

// Each `where` names a parameter some cell reads, at a value one of them has (pmoe-analyze's
// --where rule, issue 44): else a cell that does not read it would pass every such `where`, and
// a misspelt or foreign condition would select everything without a word.
void CheckWhere(const std::vector<CellParams>& cells, const PrecisionConfig& c,
                const std::string& path) {
  for (const auto& [param, value] : c.where) {
    std::set<std::string> values;
    for (const CellParams& p : cells)
      if (auto it = p.find(param); it != p.end()) values.insert(it->second);
    std::string list;
    for (const std::string& v : values) list += (list.empty() ? "" : ", ") + v;
    if (values.empty())
      throw ConfigError(path + ": " + SectionOf(c) + " where = " + WhereText(c) +
                        ": no cell reads " + param +
                        " (a condition on it would select every cell; pmoe-analyze "
                        "--where refuses it alike)");
    if (!values.count(value))
      throw ConfigError(path + ": " + SectionOf(c) + " where = " + WhereText(c) +
                        " selects no cell: " + param + " is one of " + list);
  }
}

std::string KindOf(const CellParams& p) {
  auto it = p.find("model.kind");
  return it == p.end() ? "" : it->second;
}

// Whether the cell is of the model a target names: a kind, or P=V,... (core/axis_name.hpp).
bool Matches(const CellParams& p, const std::string& model) {
  for (const auto& [name, value] : ModelSelector(model)) {
    auto it = p.find(name);
    if (it == p.end() || it->second != value) return false;
  }
  return true;
}

// The parameters the target's model and baseline name beyond the kind: the two sides differ in
// them by design, so they pair across them.
std::set<std::string> SelectorParams(const PrecisionConfig& c) {
  std::set<std::string> out;
  for (const std::string& model : {c.model, c.paired ? c.baseline : std::string()})
    for (const auto& [name, value] : ModelSelector(model))
      if (name != "model.kind") out.insert(name);
  return out;
}

// The model kinds of the selected cells on each side (0: the numerator's CNN, 1: the rest).
// Cells of another kind than `model` names leave the target (cleared, as outside `where`).
// Several kinds on one side would be pooled into one curve whose N* matches no model (issue 41):
// refused, listing them, as is a side that `where` or `model` emptied.
void CheckKinds(std::vector<CellParams>& cells, const PrecisionConfig& c, const std::string& path) {
  std::set<std::string> kinds[2];
  for (CellParams& p : cells) {
    if (p.empty()) continue;
    const std::string kind = KindOf(p);
    const bool numerator = c.paired && Matches(p, c.baseline);
    if (!c.model.empty() && !numerator && !Matches(p, c.model)) {
      p.clear();
      continue;
    }
    kinds[numerator ? 0 : 1].insert(kind);
  }
  auto list = [](const std::set<std::string>& set) {
    std::string text;
    for (const std::string& k : set) text += (text.empty() ? "" : ", ") + k;
    return text;
  };
  const std::string filter = (c.where.empty() ? "" : " where = " + WhereText(c)) +
                             (c.model.empty() ? "" : " model = " + c.model);
  if (kinds[1].size() > 1)
    throw ConfigError(path + ": " + SectionOf(c) + " the target's cells are of " +
                      std::to_string(kinds[1].size()) + " model kinds (" + list(kinds[1]) +
                      "); name the one it is about with model = KIND (one curve per model, "
                      "never pooled)");
  if (kinds[1].empty())
    throw ConfigError(
        path + ": " + SectionOf(c) + filter + " leaves no cell" +
        (c.paired ? " of the model compared (a kind other than " + c.baseline + ")" : "") +
        (c.model.empty() ? "" : " of model.kind = " + c.model));
  if (c.paired && kinds[0].empty())
    throw ConfigError(path + ": " + SectionOf(c) + (filter.empty() ? " the grid" : filter) +
                      " leaves no " + c.baseline + " cell: the baseline's side is empty");
}

// The kind's statistic (stats/target_kind.hpp: pmoe-analyze statistic builds the same).
TargetStatistic StatisticOf(const std::vector<CurveCell>& curve, const PrecisionConfig& c) {
  return TargetStatisticOf(c.target, curve, c.curve);
}

namespace {

// The cells inside `where`; those outside keep their index (the sweep's) with no parameters, so
// they join no target.
std::vector<CellParams> SelectedCells(const std::vector<CellParams>& all_cells,
                                      const PrecisionConfig& c, const std::string& path) {
  CheckWhere(all_cells, c, path);
  std::vector<CellParams> cells = all_cells;
  size_t selected = 0;
  for (CellParams& p : cells)
    if (Selected(p, c))
      ++selected;
    else
      p.clear();
  if (selected == 0)
    throw ConfigError(path + ": " + SectionOf(c) + " where = " + WhereText(c) + " selects no cell");
  return cells;
}

// The parameters that name a group: those that vary over the cells, but a setting per model kind
// (the CNN's own step cap: it does not stop pairing) and those that follow the axis.
std::set<std::string> NamingParams(const std::vector<CellParams>& cells, const PrecisionConfig& c,
                                   const std::set<std::string>& per_kind) {
  std::map<std::string, std::set<std::string>> values;
  for (const CellParams& p : cells)
    for (const auto& [name, value] : p) values[name].insert(value);
  std::set<std::string> varying;
  for (const auto& [name, set] : values)
    if (set.size() > 1 && !per_kind.count(name)) varying.insert(name);
  for (const std::string& name : AxisFollowers(cells, c, varying)) varying.erase(name);
  return varying;
}

bool IsBaseline(const CellParams& p, const PrecisionConfig& c) {
  return c.paired && !p.empty() && Matches(p, c.baseline);
}

// The model's cells (every cell for a plain exponent) place themselves on their group's curve.
std::map<std::string, PrecisionGroup> PlaceModelCells(const std::vector<CellParams>& cells,
                                                      const PrecisionConfig& c,
                                                      const std::set<std::string>& naming,
                                                      const std::string& path) {
  std::map<std::string, PrecisionGroup> groups;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].empty() || IsBaseline(cells[i], c)) continue;  // outside `where`, or a CNN
    const double N = Number(cells[i], "N"), x = AxisOf(cells[i], c);
    if (!(N > 0) || !(x > 0))
      throw ConfigError(path + ": " + SectionOf(c) + " cell " + std::to_string(i) +
                        " has no positive N or " + OverText(c) +
                        " (the axis must be numeric and positive)");
    PrecisionGroup& g = groups[GroupKey(cells[i], c, naming)];
    g.cells.push_back(i);
    g.curve.push_back({c.paired ? 1 : 0, x, N});
  }
  return groups;
}

// Each baseline cell joins every curve (group, axis value) whose cells it pairs with.
void PlaceBaselineCells(const std::vector<CellParams>& cells, const PrecisionConfig& c,
                        const std::set<std::string>& ignored,
                        std::map<std::string, PrecisionGroup>& groups, const std::string& path) {
  for (auto& [label, g] : groups) {
    std::map<double, size_t> curve_cell;  // axis value -> one of its cells
    for (size_t j = 0; j < g.cells.size(); ++j) curve_cell.emplace(g.curve[j].axis, g.cells[j]);
    for (size_t i = 0; i < cells.size(); ++i) {
      if (!IsBaseline(cells[i], c)) continue;
      for (const auto& [x, other] : curve_cell)
        if (CellsPair(cells[i], cells[other], ignored)) {
          g.cells.push_back(i);
          g.curve.push_back({0, x, Number(cells[i], "N")});
        }
    }
  }
  const bool any_baseline = std::any_of(cells.begin(), cells.end(),
                                        [&](const CellParams& p) { return IsBaseline(p, c); });
  if (!any_baseline || groups.empty())
    throw ConfigError(path + ": " + SectionOf(c) + " target = " + c.target +
                      " needs model.kind = " + c.baseline + " and another model in the grid");
}

}  // namespace

std::vector<PrecisionGroup> LayoutTargets(const std::vector<CellParams>& all_cells,
                                          const PrecisionConfig& c, const std::string& path) {
  std::vector<CellParams> cells = SelectedCells(all_cells, c, path);
  CheckKinds(cells, c, path);  // clears the cells of kinds the target does not read
  const std::set<std::string> per_kind = ParamsSetPerKind(cells);
  std::map<std::string, PrecisionGroup> groups =
      PlaceModelCells(cells, c, NamingParams(cells, c, per_kind), path);
  if (c.paired) {
    std::set<std::string> ignored = SelectorParams(c);
    ignored.insert(per_kind.begin(), per_kind.end());
    PlaceBaselineCells(cells, c, ignored, groups, path);
  }
  std::vector<PrecisionGroup> out;
  for (auto& [label, g] : groups) {
    g.label = label;
    try {
      StatisticOf(g.curve, c);  // checks the layout
    } catch (const std::invalid_argument& e) {
      throw ConfigError(path + ": " + SectionOf(c) + " target of " + label + ": " + e.what());
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace pmoe
