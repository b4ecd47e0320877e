// The class pairs whose routers are trained together (MODEL.md §7, M.1): (0,1), (2,3), ...; with
// c odd the last class is paired with the first. Two classes: the one pair (0,1). The pattern
// model places its confusers per pair and l* is defined over these pairs.
#pragma once

#include <utility>
#include <vector>

namespace pmoe {

inline std::vector<std::pair<int, int>> RouterPairs(int classes) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i + 1 < classes; i += 2) pairs.emplace_back(i, i + 1);
  if (classes % 2 == 1 && classes > 1) pairs.emplace_back(classes - 1, 0);
  return pairs;
}

}  // namespace pmoe
