// The short parameter names of pmoe-analyze and of [precision] (axis_name.hpp).
#include "pmoe/core/axis_name.hpp"

#include <algorithm>
#include <map>

namespace pmoe {

std::string AxisName(const std::string& name) {
  static const std::map<std::string, std::string> shorts = {
      {"l", "model.l"},          {"k", "model.k"},       {"m", "model.m"},
      {"n", "data.n"},           {"d", "data.d"},        {"p", "data.p"},
      {"l_star", "data.l_star"}, {"kind", "model.kind"}, {"c", "data.c"}};
  const auto it = shorts.find(name);
  return it == shorts.end() ? name : it->second;
}

std::vector<std::pair<std::string, std::string>> ModelSelector(const std::string& text) {
  if (text.find('=') == std::string::npos) return {{"model.kind", text}};
  std::vector<std::pair<std::string, std::string>> selector;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) return {};
    selector.push_back({AxisName(item.substr(0, eq)), item.substr(eq + 1)});
    start = end + 1;
  }
  return selector;
}

}  // namespace pmoe
