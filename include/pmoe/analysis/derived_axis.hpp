// An axis derived from the swept parameters, for `pmoe-analyze exponent --over n/l`: an
// expression (core/expression.hpp: + - * /, parentheses, numbers) over numeric parameters,
// written by full name (data.n/model.l) or short name (n/l: AxisName's, or the part after the
// dot of one parameter of the results).
#pragma once

#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"

namespace pmoe {

// Whether --over's text is an expression rather than one parameter.
bool IsDerivedAxis(const std::string& axis);

struct DerivedAxis {
  std::string name;                 // the expression over full names: "data.n/model.l"
  std::vector<std::string> params;  // the parameters it is made of, in order of appearance
};

// The cells that read every parameter of the axis, each with its value as the parameter
// axis->name (a copy of `results`; trials renumbered). A cell that reads some of the axis'
// parameters but not all (a CNN reads data.n, not model.l) is the same cell at every value of
// those it lacks: it appears once per combination of them that the cells reading them all show at
// its values of the rest (the CNN at n = 64 takes every pMoE's n/l at n = 64, with its own rows),
// so that ratios pair it with every pMoE curve. Cells that read none are left out. Throws
// std::invalid_argument naming the text and what is wrong: bad syntax, a name that is no parameter
// of the results, a parameter that is not a number, or no cell left.
Results WithDerivedAxis(const Results& results, const std::string& text, DerivedAxis* axis);

}  // namespace pmoe
