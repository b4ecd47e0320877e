// The published full-batch stopping rule (MODEL.md §8), asked before each step with the loss of
// that step's forward pass: a new minimum is kept and training goes on; otherwise it stops when
// the loss rose more than `rise` above the minimum (only at steps > rise_after), or when it is at
// or below `floor` (the double-softmax loss's floor; -inf: never).
#pragma once

#include <cmath>
#include <limits>

namespace pmoe {

enum class RuleStop { kNone, kRise, kFloor };

class LossRiseRule {
 public:
  LossRiseRule(double rise, int rise_after, double floor)
      : rise_(rise), rise_after_(rise_after), floor_(floor) {}

  // Step index `step` counts from 0.
  RuleStop Check(double loss, int step) {
    if (loss <= min_) {
      min_ = loss;
      return RuleStop::kNone;
    }
    if (step > rise_after_ && loss > min_ + rise_) return RuleStop::kRise;
    if (loss <= floor_) return RuleStop::kFloor;
    return RuleStop::kNone;
  }

 private:
  double rise_;
  int rise_after_;
  double floor_;
  double min_ = std::numeric_limits<double>::infinity();
};

}  // namespace pmoe
