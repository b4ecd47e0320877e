// Derived axes: resolve the expression's names against the results' parameters, then give each
// cell that reads them all the expression's value.
#include "pmoe/analysis/derived_axis.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "pmoe/core/expression.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

// A name of the expression as a parameter of the results: itself, AxisName's short form, or the
// one parameter whose name ends in ".name".
std::string Resolve(const std::string& text, const std::string& name,
                    const std::set<std::string>& known) {
  if (known.count(name)) return name;
  if (known.count(AxisName(name))) return AxisName(name);
  std::vector<std::string> matches;
  for (const std::string& k : known) {
    const size_t dot = k.rfind('.');
    if (dot != std::string::npos && k.substr(dot + 1) == name) matches.push_back(k);
  }
  if (matches.size() == 1) return matches[0];
  std::string list;
  for (const std::string& k :
       (matches.empty() ? std::vector<std::string>(known.begin(), known.end()) : matches))
    list += (list.empty() ? "" : ", ") + k;
  throw std::invalid_argument("--over " + text + ": " + name +
                              (matches.empty() ? " is not a parameter of these results (they have "
                                               : " is ambiguous (write one of ") +
                              list + ")");
}

// An axis none of whose parameters varies has one value: its "exponent" would be a table of
// "-". Refused, naming the parameters and what the files swept.
void RequireSomeSwept(const Results& results, const std::string& text,
                      const std::vector<std::string>& params) {
  const std::vector<std::string> swept = results.SweptParameters();
  std::string names, list;
  for (const std::string& p : params) {
    if (std::find(swept.begin(), swept.end(), p) != swept.end()) return;
    names += (names.empty() ? "" : ", ") + p;
  }
  for (const std::string& s : swept) list += (list.empty() ? "" : ", ") + s;
  throw std::invalid_argument(
      "--over " + text + ": none of " + names +
      " is swept in these files (swept: " + (list.empty() ? "none, one cell" : list) + ")");
}

}  // namespace

bool IsDerivedAxis(const std::string& axis) { return LooksLikeExpression(axis); }

Results WithDerivedAxis(const Results& results, const std::string& text, DerivedAxis* axis) {
  Expression parsed;
  try {
    parsed = Expression::Parse(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--over ") + e.what() +
                                " (a derived axis is arithmetic over parameters, e.g. n/l, "
                                "data.n*model.l, (n-1)/l)");
  }
  if (parsed.names().empty())
    throw std::invalid_argument("--over " + text + ": names no parameter");
  std::set<std::string> known;
  for (const CellRecord& c : results.cells)
    for (const auto& [name, value] : c.params) known.insert(name);
  const Expression full = Expression::Parse(
      parsed.Rewrite([&](const std::string& name) { return Resolve(text, name, known); }));
  axis->name = full.text();
  axis->params = full.names();
  for (const std::string& p : axis->params)
    for (const CellRecord& c : results.cells)
      if (c.params.count(p) && !std::isfinite(c.Number(p)))
        throw std::invalid_argument("--over " + text + ": " + p + " is not a number (it takes \"" +
                                    c.Text(p) + "\")");
  RequireSomeSwept(results, text, axis->params);
  auto reads = [](const CellRecord& c, const std::string& p) { return c.params.count(p) > 0; };
  // A cell that reads some parameters of the axis but not all (a CNN reads data.n, not model.l)
  // is the same cell at every value of those it lacks: it takes each combination of them that
  // the cells reading them all show beside its own values of the rest (the pMoE's n/l at its n),
  // so that it pairs with every pMoE curve for ratios.
  using Fill = std::vector<std::pair<std::string, std::string>>;  // (lacking parameter, value)
  std::vector<std::vector<Fill>> fills(results.cells.size());
  for (size_t i = 0; i < results.cells.size(); ++i) {
    const CellRecord& cell = results.cells[i];
    size_t lacking = 0;
    for (const std::string& p : axis->params) lacking += !reads(cell, p);
    if (lacking == 0 || lacking == axis->params.size()) continue;
    std::set<Fill> seen;
    for (const CellRecord& other : results.cells) {
      Fill fill;
      bool matches = true;
      for (const std::string& p : axis->params) {
        if (!reads(other, p))
          matches = false;
        else if (!reads(cell, p))
          fill.emplace_back(p, other.Text(p));
        else if (other.Text(p) != cell.Text(p))
          matches = false;
      }
      if (matches && seen.insert(fill).second) fills[i].push_back(std::move(fill));
    }
  }
  Results out;
  out.files = results.files;
  out.metrics = results.metrics;
  out.theory = results.theory;
  std::vector<std::vector<size_t>> copies(results.cells.size());  // old cell -> new cells
  for (size_t i = 0; i < results.cells.size(); ++i) {
    std::vector<CellRecord> variants;
    bool reads_all = true;
    for (const std::string& p : axis->params) reads_all = reads_all && reads(results.cells[i], p);
    if (reads_all) variants.push_back(results.cells[i]);
    for (const auto& fill : fills[i]) {
      CellRecord copy = results.cells[i];
      for (const auto& [p, value] : fill) copy.params[p] = value;
      variants.push_back(std::move(copy));
    }
    for (CellRecord& cell : variants) {
      cell.params[axis->name] =
          FormatDouble(full.Evaluate([&](const std::string& p) { return cell.Number(p); }));
      copies[i].push_back(out.cells.size());
      out.cells.push_back(std::move(cell));
    }
  }
  if (out.cells.empty())
    throw std::invalid_argument("--over " + text + ": no cell has every parameter of " +
                                axis->name);
  for (const TrialRecord& t : results.trials)
    for (size_t c : copies[t.cell]) {
      TrialRecord copy = t;
      copy.cell = c;
      out.trials.push_back(copy);
    }
  return out;
}

}  // namespace pmoe
