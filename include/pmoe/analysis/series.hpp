// Series of cells for sample complexity: for each combination of the swept parameters but N and
// the axis, the cells at each axis value, sorted by N.
#pragma once

#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"

namespace pmoe {

struct AxisPoint {
  double value = 0;  // the axis's value (NaN when the axis is not numeric)
  std::string text;
  std::vector<size_t> cells;  // one per N, sorted by N
  std::vector<double> N;
  // Every cell routes all n patches to each expert (model.l = data.n): separate pMoE is then the
  // CNN's architecture, the l = n control of a ratio (issue 39).
  bool all_patches = false;
};

struct Series {
  std::string label;  // the other swept parameters, "model.kind=cnn"; "all" if none
  std::string model_kind;
  std::string others;             // the label without model.kind: series of one design
  std::vector<AxisPoint> points;  // sorted by axis value
};

// `defining`: the parameters a derived axis is made of (n and l of n/l), which name no series;
// nor does a parameter that follows the axis (one value per axis value: Lemma 4.1's router
// sample over data.n).
// Throws std::invalid_argument when the cells do not vary N, the axis is not a numeric parameter,
// or two cells of a series share an axis value and N.
std::vector<Series> BuildSeries(const Results& results, const std::string& axis,
                                const std::vector<std::string>& defining);

}  // namespace pmoe
