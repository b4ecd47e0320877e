// The interface every data model implements (A: pattern, later B: image, C: cluster), and the
// factory that builds one from a DataSpec and a data seed.
#pragma once

#include <cstdint>
#include <memory>

#include "pmoe/core/spec.hpp"
#include "pmoe/data/dataset.hpp"

namespace pmoe {

class DataSource {
 public:
  virtual ~DataSource() = default;

  // The first `count` samples of `split` into `out`, reusing its storage when it already has
  // the size (a trial's data sets are large: fresh memory costs page faults). Sample i depends
  // only on (data seed, split, i), so a smaller draw is always a prefix of a larger one.
  virtual void Draw(Split split, int count, Dataset& out) const = 0;

  Dataset Draw(Split split, int count) const {
    Dataset out;
    Draw(split, count, out);
    return out;
  }

  // What the drawn data realized (MODEL.md §2), over all the given samples.
  virtual RealizedStats Measure(const Dataset& train, const Dataset& test) const = 0;
};

// Throws InfeasibleError when the data model's parameters admit no construction.
std::unique_ptr<DataSource> MakeDataSource(const DataSpec& spec, uint64_t data_seed);

}  // namespace pmoe
