// The theory's order of a swept parameter, read off the bound a family declared (/theory).
#include "pmoe/analysis/theory_orders.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "pmoe/analysis/legacy_theory_orders.hpp"

namespace pmoe {
namespace {

// The parameters the theory's bounds are stated in (MODEL.md §9, §7): a bound without one of
// these does not grow with it (order 0). Any other parameter (m: the bounds hold for m large
// enough) has no order unless a bound names it.
const std::set<std::string>& BoundVariables() {
  static const std::set<std::string> names = {"n", "l", "k", "p", "c"};
  return names;
}

// "data.n" -> "n"; a name without a dot (a derived axis, "n/l") is its own symbol.
std::string SymbolOf(const std::string& axis) {
  const size_t dot = axis.find('.');
  return dot == std::string::npos ? axis : axis.substr(dot + 1);
}

bool IsNone(const std::string& formula) { return formula.rfind("none", 0) == 0; }

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether `symbol` occurs in `term` as a whole name ("n" in "(n", not in "eps").
bool ContainsName(const std::string& term, const std::string& symbol) {
  for (size_t at = term.find(symbol); at != std::string::npos; at = term.find(symbol, at + 1)) {
    const size_t end = at + symbol.size();
    if ((at == 0 || !IsNameChar(term[at - 1])) && (end == term.size() || !IsNameChar(term[end])))
      return true;
  }
  return false;
}

}  // namespace

double ExponentOf(const std::string& formula, const std::string& symbol) {
  double order = 0;
  double sign = 1;
  std::istringstream terms(formula);
  std::string term;
  while (terms >> term) {
    if (term == "/") {
      sign = -1;
      continue;
    }
    const size_t caret = term.find('^');
    const std::string base = term.substr(0, caret);
    if (base == symbol) {
      if (caret == std::string::npos) {
        order += sign;
        continue;
      }
      char* end = nullptr;
      const std::string power = term.substr(caret + 1);
      const double p = std::strtod(power.c_str(), &end);
      if (power.empty() || *end != '\0') return NAN;
      order += sign * p;
    } else if (ContainsName(term, symbol)) {
      return NAN;  // "(n l)^2" or "n*l": a term this reading does not take apart
    }
  }
  return order;
}

std::string TheoryFormula(const DeclaredBounds& declared, const std::string& kind,
                          const std::string& axis) {
  const auto it = declared.find(kind);
  if (it == declared.end()) return LegacyTheoryFormula(kind, axis);
  const DeclaredBound& bound = it->second;
  if (axis != "data.c" || bound.samples.empty()) return bound.samples;
  if (bound.multiclass.empty()) return "none (no multiclass bound declared)";
  if (IsNone(bound.multiclass)) return bound.multiclass;
  return bound.multiclass + " " + bound.samples;
}

double TheoryOrder(const DeclaredBounds& declared, const std::string& kind,
                   const std::string& axis) {
  if (!declared.count(kind)) return LegacyTheoryOrder(kind, axis);
  const std::string formula = TheoryFormula(declared, kind, axis);
  if (formula.empty() || IsNone(formula)) return NAN;
  const std::string symbol = SymbolOf(axis);
  const double order = ExponentOf(formula, symbol);
  if (order == 0 && !BoundVariables().count(symbol)) return NAN;
  return order;
}

std::string TheoryRatioFormula(const DeclaredBounds& declared, const std::string& numerator,
                               const std::string& denominator, const std::string& axis) {
  const std::string top = TheoryFormula(declared, numerator, axis);
  const std::string bottom = TheoryFormula(declared, denominator, axis);
  if (top.empty() || bottom.empty()) return "";
  if (IsNone(top)) return top;
  if (IsNone(bottom)) return bottom;
  return "(" + top + ") / (" + bottom + ")";
}

bool IsRatioBaseline(const DeclaredBounds& declared, const std::string& kind) {
  const auto it = declared.find(kind);
  if (it != declared.end() && it->second.ratio_baseline) return *it->second.ratio_baseline;
  return LegacyRatioBaseline(kind);
}

}  // namespace pmoe
