// Whether the files given to the analysis hold every trial of their sweep. Shards run their
// costly trials first, so an unfinished set lacks mostly small-N trials, the ones that decide
// N*: an analysis of it is biased without a word unless this says so.
#pragma once

#include <string>
#include <vector>

#include "pmoe/analysis/results.hpp"

namespace pmoe {

// "" when every cell of the files' /cells holds its sweep's trials_per_cell trials; else a
// warning naming how many trials lack, at which N, and the pmoe-sweep command that finishes them.
std::string DescribeMissingTrials(const Results& results);

}  // namespace pmoe
