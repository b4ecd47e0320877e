// JSON pieces the pmoe-sweep commands share in their --json output.
#pragma once

#include <vector>

#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/adaptive/adaptive_work.hpp"

namespace pmoe {

// "series": [{label, state, rounds, trials, N_star, lo, hi}, ...] (inside an open object).
void WriteSeriesJson(JsonWriter& w, const std::vector<SeriesOutcome>& series);

}  // namespace pmoe
