// Data model A, the pattern model (MODEL.md §2): draws (x, y) whose discriminative and irrelevant
// patterns meet delta_d, delta_r and l* exactly. Pure: the same seed gives the same samples.
#pragma once

#include <cstdint>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/data/data_source.hpp"
#include "pmoe/data/pattern_plan.hpp"

namespace pmoe {

class PatternModel : public DataSource {
 public:
  // Builds o1, o2 and the p set centers from a random orthonormal frame drawn from `data_seed`.
  PatternModel(const PatternPlan& plan, uint64_t data_seed);

  using DataSource::Draw;
  void Draw(Split split, int count, Dataset& out) const override;
  RealizedStats Measure(const Dataset& train, const Dataset& test) const;
  void Record(const Dataset& train, const Dataset& test, Metrics& metrics) const override {
    RecordRealizedStats(Measure(train, test), metrics);
  }

  const PatternPlan& plan() const { return plan_; }
  const Vecd& o1() const { return o1_; }
  const Vecd& o2() const { return o2_; }
  const RowMat<double>& centers() const { return centers_; }
  // +1: confuser set toward o1, -1: toward o2, 0: neutral; one per row of centers().
  const std::vector<int>& direction() const { return direction_; }

 private:
  // Writes sample `index` of `split` into rows [index*n, index*n + n) of out.x.
  void DrawSample(Split split, int index, Dataset& out) const;
  // For each i < count: q[i] uniform on the cap around center set[i] (exact, MODEL.md §2) at
  // angle 2 pi turn[i] from its center; q[i] holds d standard normals on entry and the pattern
  // on return; scores[i] gets <o1, q[i]> and <o2, q[i]>.
  void DrawFromCaps(int count, const int* set, const float* turn, float* const* q,
                    float* const* scores) const;

  PatternPlan plan_;
  uint64_t data_seed_;
  Vecd o1_, o2_;                    // (d)
  RowMat<double> centers_;          // (p, d): confuser sets toward o1, toward o2, then neutral
  RowMatf centers_f_;               // the same in float, for the generator's hot loop
  RowMatf patterns_f_;              // (d, 2): o1 and o2 as columns, for Measure's one product
  Vecf o1_f_, o2_f_;                // (d): contiguous, for the generator's per-patch scores
  std::vector<int> direction_;      // (p)
  std::vector<int> toward_o1_, toward_o2_, neutral_;  // set indices by role
};

}  // namespace pmoe
