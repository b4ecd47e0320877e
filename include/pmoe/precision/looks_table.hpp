// The looks of a sweep's precision targets as text, for the result file's precision_looks
// attribute: one line per look, "target<TAB>look<TAB>trials<TAB>alpha<TAB>estimate<TAB>lo<TAB>hi
// <TAB>verdict", numbers with 17 significant digits so that a file's table reads back exactly.
// pmoe-sweep status and the report pages read it; a merge rebuilds it from the shards' rows.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pmoe/precision/precision_target.hpp"

namespace pmoe {

struct TargetLooks {
  std::string target;  // the target's label
  std::vector<Look> looks;
  Verdict verdict() const { return looks.empty() ? Verdict::kRunning : looks.back().verdict; }
};

std::string LooksTable(const std::vector<TargetLooks>& targets);

// Throws std::invalid_argument naming the line that is not a look (a damaged or foreign file).
std::vector<TargetLooks> ParseLooksTable(const std::string& text);

}  // namespace pmoe
