// The theory printed beside a measured exponent: the sufficient sample complexity each model
// family declares (MODEL.md §9's samples row; over the number of classes c, §7's multiclass
// factor), as the sweep wrote it into the result file's /theory. Upper bounds, never fitted to.
// The analysis reads the order of a swept parameter off the declared formula and never names a
// family; files written before /theory use the legacy table of legacy_theory_orders.hpp.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace pmoe {

// One row of a result file's /theory: a model kind's declared bound ("" where it declares none).
struct DeclaredBound {
  std::string samples;                 // "l^8 p^12 delta^6 / eps^16"
  std::string multiclass;              // the factor over c ("c^12"), or "none (why)"
  std::optional<bool> ratio_baseline;  // /theory/ratio_baseline; none in older files
};

// By model.kind, from the files' /theory; a kind absent from it (a file written before /theory)
// falls back on the legacy table.
using DeclaredBounds = std::map<std::string, DeclaredBound>;

// The order of `kind`'s sample complexity in the parameter `axis` ("data.n", "model.l", ...):
// the exponent of the axis's symbol (the name after the dot) in the bound; 0 where the bound
// does not contain n, l, k, p or c; NaN where there is no bound or the symbol is another
// parameter's (m: the bounds hold for m large enough).
double TheoryOrder(const DeclaredBounds& declared, const std::string& kind,
                   const std::string& axis);

// The bound whose order that is, as printed in pmoe-analyze's theory_formula column: over c the
// multiclass bound, over any other axis the binary one; "none ..." where no bound applies.
std::string TheoryFormula(const DeclaredBounds& declared, const std::string& kind,
                          const std::string& axis);

// The same for the ratio N*(numerator) / N*(denominator): "(A) / (B)", or "none ..." when either
// side has no bound over `axis`.
std::string TheoryRatioFormula(const DeclaredBounds& declared, const std::string& numerator,
                               const std::string& denominator, const std::string& axis);

// The exponent of `symbol` in a product of powers "k^4 l^6 p^12 delta^6 / eps^16" (negative
// after the "/"; 0 where it does not occur; NaN where it occurs in a term not of the form
// symbol or symbol^number).
// Whether ratios divide by `kind`'s N* (its family's declaration, /theory/ratio_baseline); for
// files written before it, the legacy answer (the CNN: legacy_theory_orders.hpp).
bool IsRatioBaseline(const DeclaredBounds& declared, const std::string& kind);

double ExponentOf(const std::string& formula, const std::string& symbol);

}  // namespace pmoe
