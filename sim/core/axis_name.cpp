// The short parameter names of pmoe-analyze and of [precision] (axis_name.hpp).
#include "pmoe/core/axis_name.hpp"

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

}  // namespace pmoe
