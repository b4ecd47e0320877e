// Helpers of the sweep tests: small configs and comparison of result files.
#pragma once

#include <string>

#include "pmoe/sweep/store/result_file.hpp"

namespace pmoe::test {

// A sweep of many quick trials (separate and CNN, l and N axes), written to dir/NAME.ini.
std::string WriteQuickSweep(const std::string& dir, const std::string& name, int trials);

// "" when the two files hold the same /cells and the same /trials in every field but timings,
// else the first difference.
std::string CompareResults(const std::string& a, const std::string& b);

std::string SweepCommand(const std::string& args);

}  // namespace pmoe::test
