// The one explicit list of the families every binary knows: pmoe-sim, pmoe-sweep, pmoe-bench and
// the tests. A new family is its file under sim/family/ (which the build picks up by itself) plus
// its accessor in builtin.hpp and one line here. (No static self-registration: static libraries
// drop objects nothing references.)
#include "pmoe/family/builtin.hpp"

namespace pmoe {
namespace {

template <typename Family>
std::vector<const Family*> Joined(std::vector<const Family*> list,
                                  const std::vector<const Family*>& added) {
  list.insert(list.end(), added.begin(), added.end());
  return list;
}

}  // namespace

// None in the tools. Weak, so that a binary adds families by defining these again in an object
// it links (the tests add their toys: tests/families/toy_families.cpp); the linker then takes
// that definition over this one.
__attribute__((weak)) std::vector<const DataFamily*> AddedDataFamilies() { return {}; }
__attribute__((weak)) std::vector<const ModelFamily*> AddedModelFamilies() { return {}; }

const std::vector<const DataFamily*>& DataFamilies() {
  static const std::vector<const DataFamily*> list =
      Joined({&PatternFamily(), &ImageFamily(), &ClusterFamily()}, AddedDataFamilies());
  return list;
}

const std::vector<const ModelFamily*>& ModelFamilies() {
  // In any order: the table takes every family's declarations before their readers, and no
  // canonical key depends on the order (param_table.hpp, BuildParamTable).
  static const std::vector<const ModelFamily*> list =
      Joined({&SeparateFamily(), &JointFamily(), &CnnFamily(), &SwitchFamily(), &SingleFamily()},
             AddedModelFamilies());
  return list;
}

}  // namespace pmoe
