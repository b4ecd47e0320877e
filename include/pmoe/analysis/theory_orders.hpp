// The theory printed beside a measured exponent: MODEL.md §9's sufficient sample complexity per
// model and, over the number of classes c, §7's multiclass orders (the paper's appendix M:
// separate c^12, joint c^8, the §9 bounds multiplied). Upper bounds, never fitted to.
#pragma once

#include <string>

namespace pmoe {

// The order of `kind`'s sample complexity in the parameter `axis` ("data.n", "model.l",
// "data.c", ...); NaN where the theory says nothing (the CNN over c, Chen's families, m).
double TheoryOrder(const std::string& kind, const std::string& axis);

// The bound whose order that is, as printed in pmoe-analyze's theory_formula column: over c the
// multiclass bound, over any other axis the binary one; "none ..." where no bound applies.
std::string TheoryFormula(const std::string& kind, const std::string& axis);

// The same for the ratio N*(numerator) / N*(denominator): "(A) / (B)", or "none ..." when either
// side has no bound over `axis`.
std::string TheoryRatioFormula(const std::string& numerator, const std::string& denominator,
                               const std::string& axis);

}  // namespace pmoe
