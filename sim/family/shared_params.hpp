// The parameters several families read: the data's labels and shape (data.labels, data.n,
// data.d), the step cap (model.max_steps) and the SGD rows' checks (model.lr, model.m,
// model.loss, ...), each declared and checked here once. A family reading one declares it among
// its shared_params() (SharedParams), identically, so the table holds each row once with every
// reader. ValidateSpec runs every check whose parameter the cell's families read, before the
// model family's own Validate: a new family that reads model.lr is checked like the others
// without calling or copying anything.
#pragma once

#include <string>
#include <vector>

#include "pmoe/data/data_spec.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/family/field_params.hpp"
#include "pmoe/family/model_spec.hpp"

namespace pmoe {

// data.labels, data.n and data.d, on DataSpec's fields.
const FieldParams<DataSpec>& SharedDataParams();

// model.max_steps, on ModelSpec's field (the full-batch families read it with IntParam).
const FieldParams<ModelSpec>& SharedModelParams();

// The rows of the two lists above that `reads` names: a family's share of them.
std::vector<ParamInfo> SharedParams(const std::vector<std::string>& reads);

void ValidateSharedParams(const TrialSpec& spec, const DataShape& shape, const std::string& where);

}  // namespace pmoe
