// The checks of the parameters several families share (the shared rows of core/param_table.cpp:
// model.lr, model.m, model.loss, ...), each kept with the parameter it checks. ValidateSpec runs
// every check whose parameter the cell's families read, before the model family's own Validate:
// a new family that reads model.lr is checked like the others without calling or copying anything.
#pragma once

#include <string>

#include "pmoe/family/family.hpp"

namespace pmoe {

void ValidateSharedParams(const TrialSpec& spec, const DataShape& shape, const std::string& where);

}  // namespace pmoe
