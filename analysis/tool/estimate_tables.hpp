// pmoe-analyze's sample-complexity and exponent tables: rendering only, every number computed by
// the library (sample_complexity.hpp, trend.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/analysis/table.hpp"

namespace pmoe {

// An exponent or ratio of one reading (an index into SampleComplexity::readings).
using ReadingExponent = std::pair<size_t, Exponent>;
using ReadingRatio = std::pair<size_t, Ratio>;
using ReadingControl = std::pair<size_t, ControlCheck>;

// N* (success at the threshold) and N_acc side by side: the table every earlier version printed.
Table NStarTable(const SampleComplexity& sc);
// Every success reading, one row per series, axis value and reading (delta, epsilon).
Table QuantileTable(const SampleComplexity& sc);
Table ExponentTable(const SampleComplexity& sc, const std::vector<ReadingExponent>& exponents);
// The shape of every exponent's sequence: trend test, model comparison, upper-half slope and the
// sentence that sums them up.
Table ShapeTable(const SampleComplexity& sc, const std::vector<ReadingExponent>& exponents);
void PrintShapeSentences(const SampleComplexity& sc, const std::vector<ReadingExponent>& exponents);
Table RatioTable(const SampleComplexity& sc, const std::vector<ReadingRatio>& ratios);
Table ControlTable(const SampleComplexity& sc, const std::vector<ReadingControl>& controls);

// "data.n/model.l" -> "n/l": the axis as a reader names it.
std::string ShortAxis(const std::string& axis);

}  // namespace pmoe
