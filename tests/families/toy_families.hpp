// Two toy families defined only in the tests, to prove that a family is a file plus a line in
// the list: a data family ("toy") and a model family ("toy_model"). toy_families.cpp adds them
// to the one family list (sim/family/family_list.cpp) for the test binary and pmoe-sweep-toy.
#pragma once

#include "pmoe/family/family.hpp"

namespace pmoe::test {

const DataFamily& ToyDataFamily();    // toy_data_family.cpp
const ModelFamily& ToyModelFamily();  // toy_model_family.cpp

}  // namespace pmoe::test
