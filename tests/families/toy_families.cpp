// The tests add their two toy families (toy_families.hpp) to the one family list
// (sim/family/family_list.cpp), after the built-in ones: the test binary and pmoe-sweep-toy link
// this object, whose definitions replace the list's weak ones.
#include "toy_families.hpp"

namespace pmoe {

std::vector<const DataFamily*> AddedDataFamilies() { return {&test::ToyDataFamily()}; }
std::vector<const ModelFamily*> AddedModelFamilies() { return {&test::ToyModelFamily()}; }

}  // namespace pmoe
