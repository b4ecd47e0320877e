// pmoe-analyze summary: one row per cell. The aligned view fits 100 columns (a terminal, a
// mail): the core columns, then as many of the rest as fit, the others named on a last line;
// --wide, --csv and --json give every column.
#pragma once

#include "pmoe/analysis/results.hpp"
#include "pmoe/analysis/table.hpp"

namespace pmoe {

inline constexpr size_t kSummaryWidth = 100;

void PrintSummary(const Results& results, Table::Format format, bool wide);

}  // namespace pmoe
