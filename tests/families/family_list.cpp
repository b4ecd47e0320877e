// The tests' list of families: the built-in ones and the two toys (toy_families.hpp).
#include "pmoe/family/builtin.hpp"
#include "toy_families.hpp"

namespace pmoe {

const std::vector<const DataFamily*>& DataFamilies() {
  static const std::vector<const DataFamily*> list = {&PatternFamily(), &ImageFamily(),
                                                      &ClusterFamily(), &test::ToyDataFamily()};
  return list;
}

const std::vector<const ModelFamily*>& ModelFamilies() {
  static const std::vector<const ModelFamily*> list = {&SeparateFamily(), &JointFamily(),
                                                       &CnnFamily(),      &SwitchFamily(),
                                                       &SingleFamily(),   &test::ToyModelFamily()};
  return list;
}

}  // namespace pmoe
