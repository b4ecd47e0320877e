// What the two full-batch families of MODEL.md §8 (switch, single) share: the parameters both
// read (declared by the switch family, read by the single one), each family's defaults for them,
// the published stopping rule, and the training curve recorded on request.
#pragma once

#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/models/conv_expert.hpp"
#include "pmoe/train/loss_rise_rule.hpp"

namespace pmoe {

// The rows the switch family declares and the single family reads.
std::vector<ParamInfo> FullBatchParams();
std::vector<std::string> FullBatchParamNames();

// A family's defaults where a shared parameter is 0 ("the family's default").
struct FullBatchDefaults {
  int filters;
  double init_scale;
  int steps;
  int rise_after;
};

struct FullBatchSettings {
  Activation act = Activation::kCubic;
  int filters = 0;
  double init_scale = 0;
  int steps = 0;          // the cap on full-batch steps
  bool stop_rule = true;  // the published rule (else: always `steps` steps)
  double loss_rise = 0.02;
  int rise_after = 0;
  int curve_every = 0;  // record the curve every this many steps (0: no curve)
};

FullBatchSettings ReadFullBatch(const TrialSpec& spec, const FullBatchDefaults& defaults);
void ValidateFullBatch(const TrialSpec& spec, const DataShape& shape, const std::string& where);

// The curve metrics (curve_step, curve_loss, curve_train_acc; curve_entropy for the MoE).
std::vector<MetricInfo> CurveMetrics(bool entropy);

// Collects a curve point every `every` steps and the last one; writes the lists into metrics.
class CurveRecorder {
 public:
  explicit CurveRecorder(int every) : every_(every) {}
  bool on() const { return every_ > 0; }
  // Step `step` (from 0) had this loss, training accuracy and entropy (NaN: none).
  void Offer(int step, double loss, double train_acc, double entropy);
  void Write(Metrics& metrics, bool entropy) const;

 private:
  int every_;
  std::vector<double> step_, loss_, acc_, entropy_;
  int last_step_ = -1;
  double last_loss_ = 0, last_acc_ = 0, last_entropy_ = 0;
};

// The stopping rule's reason as a training outcome; `rule_floor` records which rule stopped it.
StopReason StopOf(RuleStop stop);

}  // namespace pmoe
