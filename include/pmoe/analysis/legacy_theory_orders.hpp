// LEGACY: the theory orders of the three built-in model families (cnn, separate, joint) by kind
// name, as pmoe-analyze printed them before the families declared their bounds. Used ONLY for a
// model kind that a result file's /theory does not list, i.e. for files written before /theory
// existed (results/reference/paper/*.h5 among them), so they keep the same theory columns. New
// families declare their bound (ModelFamily::Bound) and never need a line here.
#pragma once

#include <string>

namespace pmoe {

// NaN where the table says nothing (the CNN over c, Chen's families, m).
double LegacyTheoryOrder(const std::string& kind, const std::string& axis);

// "" where the table has no formula for the kind.
std::string LegacyTheoryFormula(const std::string& kind, const std::string& axis);

// The ratio's baseline before the families declared it: the CNN.
bool LegacyRatioBaseline(const std::string& kind);

}  // namespace pmoe
