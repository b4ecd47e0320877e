// A list column's first or last point per trial as a metric ("curve_entropy.first",
// "curve_entropy.last"): Chen claim (4) decides on the entropy curves' ends, and pmoe-analyze
// statistic computes that statistic with the precision targets' code like every other claim's,
// rather than the page bootstrapping the curves in Python.
#pragma once

#include <string>

#include "pmoe/analysis/results.hpp"

namespace pmoe {

// When `metric` is NAME.first or NAME.last and NAME a list column of the one file `results` was
// read from, adds it to results.metrics and every trial (NaN for an empty list) and returns
// true; false when `metric` is of neither form or already a metric. Throws ConfigError when
// NAME is no list column of the file, or the results pool several files (their rows are not
// the file's rows).
bool AddListEndpoint(Results& results, const std::string& metric);

}  // namespace pmoe
