// The [precision] section of a sweep config: run the sweep's cells until a target's interval
// excludes its threshold (precision_target.hpp), instead of a fixed number of trials per cell.
//   [precision]
//   target    = ratio_exponent   exponent over `over` of N*(cnn) / N*(the other model);
//                                exponent: of N* of the sweep's one model;
//                                share: N*(model) / N*(baseline) (the sample share, at the
//                                reading's accuracy or success probability);
//                                accuracy: mean test accuracy of one cell (one N);
//                                accuracy_slope: slope of the mean accuracy over log `over`
//                                at one N; rate: mean of `metric` (router_hit, ...) of one cell;
//                                accuracy_difference: mean accuracy of model - of baseline at one
//                                N (paired trials)
//   baseline  = cnn              share, accuracy_difference (and the ratio's numerator): the
//                                model compared against
//   metric    = router_hit       rate: the per-trial metric averaged
//   side      = above            the claimed side of the threshold (above or below): the verdict
//                                shows the claim or excludes it
//   over      = n/l              the axis: a parameter, or one divided by another (short names
//                                n, l, k, m, d as in pmoe-analyze, or dotted names)
//   reading   = success          success: N* where P(success) = success_threshold (a logistic
//                                fit); mean_accuracy: N_acc where the mean test accuracy reaches
//                                target_accuracy
//   delta     = 0.1              optional, success reading: N* where P(success) = 1 - delta
//                                (success_threshold = 1 - delta; pmoe-analyze --delta)
//   model     = separate         the model kind the exponent is of (a ratio: its denominator's);
//                                needed when the cells hold several kinds (never pooled)
//   threshold = 0                the value the interval must exclude
//   half_width = 0.15            optional: also stop once the interval is this narrow each side
//                                (verdict "within" when it still holds the threshold)
//   where     = data.n=64        optional: only the cells with these values (P=V, comma-
//                                separated; a cell that does not read P stays, as in pmoe-analyze)
//   uniform_share = 0.25         of each look's new trials, the share spread evenly over the cells
//   allocation = even            even: every trial counts the same; cost: each look's CPU (by the
//                                cost model) goes where it narrows the interval most (opt-in, so
//                                files grown before plan as they did)
//   alpha     = 0.05             P(any wrong decision over all looks) at most
//   budget    = 4000             trials over all cells at most (per target), or CPU-hours
//                                (2.5h): trials at the cost model's mean seconds per trial of
//                                the targets' cells, converted before the first look and
//                                recorded (budget=N;...;budget_hours=2.5 in the identity)
//   start     = 4                trials per cell at the first look
//   looks     = 6                looks at most, the last at the budget
//   bootstrap = 1000             replicates of the deciding interval per look
//   claim     = b                the statistic keys (target .. where) of the target the config's
//                                [claims] section declares as `b` (claim_targets.hpp), instead of
//                                stating them here: a claim is declared once
#pragma once

#include <string>
#include <vector>

#include "pmoe/precision/precision_target.hpp"
#include "pmoe/stats/decision_rule.hpp"
#include "pmoe/stats/target_statistics.hpp"

namespace pmoe {

struct PrecisionConfig {
  std::string target = "ratio_exponent";  // the statistic (the target key's value)
  // Two model kinds on paired cells: side 0 the baseline's (ratio_exponent, share,
  // accuracy_difference), side 1 the model's; else one model, side 0.
  bool paired = true;
  std::string baseline = "cnn";
  std::string metric;        // rate: the metric's name
  Side side = Side::kAbove;  // the claimed side (names the verdict's meaning, never changes it)
  std::vector<std::string> over;  // one parameter, or numerator and denominator (dotted)
  std::vector<std::pair<std::string, std::string>> where;  // dotted parameter, value
  double budget_hours = 0;  // > 0: budget given in CPU-hours (settings.budget set from it)
  std::string model;    // the model kind of the exponent (or the ratio's denominator); "": the one
  CurveSettings curve;  // reading, success_threshold, target_accuracy
  PrecisionSettings settings;  // threshold, alpha, budget, start, looks, bootstrap
  std::string claim;           // [precision] claim = ID: the statistic is [claims] ID's
  std::vector<std::string> statistic_keys;  // the statistic keys the section itself set
  std::string declared_as;  // "[claims] b" for a claim's declaration; "" for [precision]'s own
};

// Where the target's keys were given, for errors: "[precision]" or "[claims] b".
std::string SectionOf(const PrecisionConfig& config);

// The keys that say which statistic a target decides and against what: target, baseline, metric,
// side, over, model, reading, success_threshold, delta, target_accuracy, threshold, where. `name`
// is the key as the file spells it, for errors. False when `key` is none of them.
bool SetStatisticKey(const std::string& path, const std::string& name, const std::string& key,
                     const std::string& value, PrecisionConfig& config);

// The keys of a run (half_width, uniform_share, allocation, alpha, budget, start, looks,
// bootstrap, claim);
// false when `key` is none of them.
bool SetRunKey(const std::string& path, const std::string& name, const std::string& key,
               const std::string& value, PrecisionConfig& config);

// Sets `key` (without "precision.") from `value`; ConfigError naming the file, the key and what
// was expected.
void SetPrecisionKey(const std::string& path, const std::string& key, const std::string& value,
                     PrecisionConfig& config);

// Checks what one statistic key cannot (over given when the statistic reads an axis, metric
// with rate); ConfigError naming the file and the section.
void FinishStatistic(const std::string& path, const PrecisionConfig& config);

// FinishStatistic, and a budget given; ConfigError naming the file.
void FinishPrecision(const std::string& path, const PrecisionConfig& config);

// "target=ratio_exponent;over=data.n/model.l;reading=success;..." : every setting, so a
// journal says what its target is and when it stops.
std::string PrecisionIdentity(const PrecisionConfig& config);

// The cell filter's text: "data.n=64,model.m=40" ("" when every cell counts).
std::string WhereText(const PrecisionConfig& config);

// The axis's text: "data.n/model.l".
std::string OverText(const PrecisionConfig& config);

}  // namespace pmoe
