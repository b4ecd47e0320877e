// The built-in families (MODEL.md §2-5), each defined in its own file under sim/family/.
#pragma once

#include "pmoe/family/family.hpp"

namespace pmoe {

const DataFamily& PatternFamily();    // data model A, pattern_family.cpp
const DataFamily& ImageFamily();      // data model B, image_family.cpp
const DataFamily& ClusterFamily();    // data model C, cluster_family.cpp
const ModelFamily& CnnFamily();       // cnn_family.cpp
const ModelFamily& SeparateFamily();  // separate_family.cpp
const ModelFamily& JointFamily();     // joint_family.cpp
const ModelFamily& SwitchFamily();    // switch_family.cpp (shares the rows single reads)
const ModelFamily& SingleFamily();    // single_family.cpp

}  // namespace pmoe
