// Derived axes: resolve the expression's names against the results' parameters, then give each
// cell that reads them all the expression's value.
#include "pmoe/analysis/derived_axis.hpp"

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
  Results out;
  out.files = results.files;
  out.metrics = results.metrics;
  out.theory = results.theory;
  std::vector<long> index(results.cells.size(), -1);
  for (size_t i = 0; i < results.cells.size(); ++i) {
    CellRecord cell = results.cells[i];
    bool reads_all = true;
    for (const std::string& p : axis->params) reads_all = reads_all && cell.params.count(p) > 0;
    if (!reads_all) continue;
    cell.params[axis->name] =
        FormatDouble(full.Evaluate([&](const std::string& p) { return cell.Number(p); }));
    index[i] = static_cast<long>(out.cells.size());
    out.cells.push_back(std::move(cell));
  }
  if (out.cells.empty())
    throw std::invalid_argument("--over " + text + ": no cell has every parameter of " +
                                axis->name);
  for (TrialRecord t : results.trials) {
    if (index[t.cell] < 0) continue;
    t.cell = static_cast<size_t>(index[t.cell]);
    out.trials.push_back(t);
  }
  return out;
}

}  // namespace pmoe
