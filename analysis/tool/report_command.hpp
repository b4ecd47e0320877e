// pmoe-analyze report: the report page of any sweep (analysis/python/pmoe/report/sweep_report.py).
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// Replaces this process with Debian's Python running the report module on `args` (everything
// after "report"); returns only on failure, with exit status 2 and the reason on stderr.
int RunReportCommand(const std::vector<std::string>& args);

}  // namespace pmoe
