// The one explicit list of the families pmoe-sim, pmoe-sweep and pmoe-bench know. A new family
// is its file(s) plus one line here. (No static self-registration: static libraries drop it.)
#include "pmoe/family/builtin.hpp"

namespace pmoe {

const std::vector<const DataFamily*>& DataFamilies() {
  static const std::vector<const DataFamily*> list = {&PatternFamily(), &ImageFamily(),
                                                      &ClusterFamily()};
  return list;
}

const std::vector<const ModelFamily*>& ModelFamilies() {
  static const std::vector<const ModelFamily*> list = {
      &SeparateFamily(), &JointFamily(), &CnnFamily(), &SwitchFamily(), &SingleFamily()};
  return list;
}

}  // namespace pmoe
