// Data model A, the pattern model (MODEL.md §2, §7 for c classes): draws (x, y) whose
// discriminative and irrelevant patterns meet delta_d, delta_r and l* exactly. Pure: the same
// seed gives the same samples. Two classes is the binary model, bit for bit.
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
  // Builds o_1..o_c and the p set centers from a random orthonormal frame drawn from `data_seed`.
  PatternModel(const PatternPlan& plan, uint64_t data_seed);

  using DataSource::Draw;
  void Draw(Split split, int count, Dataset& out) const override;
  RealizedStats Measure(const Dataset& train, const Dataset& test) const;
  void Record(const Dataset& train, const Dataset& test, Metrics& metrics) const override {
    RecordRealizedStats(Measure(train, test), metrics);
  }

  const PatternPlan& plan() const { return plan_; }
  const Vecd& o1() const { return o_[0]; }
  const Vecd& o2() const { return o_[1]; }
  const Vecd& pattern(int label) const { return o_[label]; }  // o of class `label`
  const RowMat<double>& centers() const { return centers_; }
  // +1: confuser set toward the first class of its pair (o1), -1: toward the second (o2), 0:
  // neutral; one per row of centers(). pair_of(): the set's pair in RouterPairs(c), -1 neutral.
  const std::vector<int>& direction() const { return direction_; }
  const std::vector<int>& pair_of() const { return pair_of_; }

 private:
  // Writes sample `index` of `split` into rows [index*n, index*n + n) of out.x.
  void DrawSample(Split split, int index, Dataset& out) const;
  // For each i < count: q[i] uniform on the cap around center set[i] (exact, MODEL.md §2) at
  // angle 2 pi turn[i] from its center; q[i] holds d standard normals on entry and the pattern
  // on return; scores[i] gets <o_a, q[i]> for every class a.
  void DrawFromCaps(int count, const int* set, const float* turn, float* const* q,
                    float* const* scores) const;

  PatternPlan plan_;
  uint64_t data_seed_;
  std::vector<Vecd> o_;  // (c) of (d)
  // (p, d): per pair, confuser sets toward its first class, toward its second; then neutral.
  RowMat<double> centers_;
  RowMatf centers_f_;                     // the same in float, for the generator's hot loop
  RowMatf patterns_f_;                    // (d, c): the o's as columns, for Measure's one product
  std::vector<Vecf> o_f_;                 // (c) of (d): contiguous, for the per-patch scores
  std::vector<int> direction_, pair_of_;  // (p)
  // Set indices by role: per pair, toward its first and second class; neutral.
  std::vector<std::vector<int>> toward_first_, toward_second_;
  std::vector<int> neutral_;
};

}  // namespace pmoe
