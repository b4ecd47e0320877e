// The interface every data model implements (A: pattern, B: image, C: cluster): draws the
// samples of a split from a data seed, and records what a drawn data set realized. Each data
// family (family.hpp) builds its data source.
#pragma once

#include <cstdint>
#include <memory>

#include "pmoe/core/metrics.hpp"
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

  // The statistics the drawn data realized, over all the given samples, as the family's
  // declared metrics.
  virtual void Record(const Dataset& train, const Dataset& test, Metrics& metrics) const = 0;
};

// The metrics of MODEL.md §2's realized statistics (data models A and B), and their values.
std::vector<MetricInfo> RealizedStatsMetrics();
void RecordRealizedStats(const RealizedStats& stats, Metrics& metrics);

}  // namespace pmoe
