// `pmoe-sweep plan CONFIG.ini`: the cells, trials, estimated cost and memory, without running.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pmoe {

// Returns the exit status; throws ConfigError for a bad config.
int RunPlanCommand(const std::vector<std::string>& args, std::ostream& out);

}  // namespace pmoe
