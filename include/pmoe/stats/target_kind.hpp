// A target's kind (target = accuracy, rate, share, ...) as the statistic it computes and the
// per-trial value it reads: the precision targets (precision/precision_layout.cpp,
// precision_source.cpp) and pmoe-analyze statistic (the claim pages) both take them from here,
// so that one claim read either way is the same statistic of the same values.
#pragma once

#include <string>
#include <vector>

#include "pmoe/stats/target_statistics.hpp"

namespace pmoe {

// Two model kinds on paired cells (ratio_exponent, share, accuracy_difference): side 0 the
// baseline's, side 1 the model's. Every other kind reads one model, on side 0.
bool TargetIsPaired(const std::string& target);

// Whether the kind reads an axis (over): exponent, ratio_exponent, accuracy_slope.
bool TargetReadsAxis(const std::string& target);

// What a trial contributes to the statistic.
enum class TrialReading {
  kSuccess,   // 1 or 0 (the success reading of N*)
  kAccuracy,  // the test accuracy; NaN for a trial that did not finish ok
  kMetric,    // a declared metric (rate), as recorded whatever the status
};

// The accuracy kinds and the mean-accuracy reading of N* read the accuracy; rate its metric.
TrialReading TrialReadingOf(const std::string& target, CurveReading reading);

// One trial's value under `reading`.
double TrialValue(TrialReading reading, bool ok, bool success, double test_acc, double metric);

// The kind's statistic over a curve's places: the exponents, the share, an accuracy or rate of one
// cell, an accuracy's slope over the axis at one N, a paired accuracy difference (model minus
// baseline). Throws std::invalid_argument saying what the places lack (one N, one cell per side,
// ...) or naming an unknown kind.
TargetStatistic TargetStatisticOf(const std::string& target, const std::vector<CurveCell>& curve,
                                  const CurveSettings& settings);

}  // namespace pmoe
