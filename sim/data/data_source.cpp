// Builds the data model a DataSpec names.
#include "pmoe/data/data_source.hpp"

#include "pmoe/core/errors.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "pmoe/data/image_model.hpp"
#include "pmoe/data/pattern_model.hpp"
#include "pmoe/data/pattern_plan.hpp"

namespace pmoe {

std::unique_ptr<DataSource> MakeDataSource(const DataSpec& spec, uint64_t data_seed) {
  if (spec.model == "pattern")
    return std::make_unique<PatternModel>(PlanPatternModel(spec), data_seed);
  if (spec.model == "image")  // the files are read once per process (SharedImageDataset)
    return std::make_unique<ImageModel>(spec, SharedImageDataset(spec.idx_dir), data_seed);
  throw ConfigError("", "data.model", "pattern or image", spec.model);
}

}  // namespace pmoe
