// pmoe-analyze statistic: one claim's statistic over the rows (analysis/row_statistic.hpp) with
// its interval, as the claim pages read it.
#pragma once

#include <string>

#include "pmoe/analysis/results.hpp"
#include "pmoe/analysis/sample_complexity.hpp"
#include "pmoe/analysis/table.hpp"
#include "pmoe/cli/command.hpp"

namespace pmoe {

// `results`: after --where and --from/--to. `axis`: --over (resolved); `options`: --bootstrap,
// --level, --seed, --threshold, --target-accuracy. Reads --target, --model, --baseline, --metric
// and --reading from `args`. Throws ConfigError for a bad option or a statistic it cannot form.
void PrintStatistic(const Results& results, const cli::Parsed& args, const std::string& axis,
                    const SampleComplexityOptions& options, Table::Format format);

}  // namespace pmoe
