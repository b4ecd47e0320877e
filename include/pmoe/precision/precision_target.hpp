// A precision target: trials are added to a set of cells, round by round, until the interval of a
// target statistic (an exponent, a ratio, a claim's deciding statistic) excludes a threshold, or
// the budget is spent. Each round ("look") decides from the rows it planned, never from timing or
// from rows beyond its plan, so replaying the looks over stored rows gives the same decisions
// (resume, any thread count, any shard split). Cells grow by trial index 0, 1, 2, ...: the rows
// held at the end are those a fixed-size run of the same per-cell sizes would hold.
// Error control: sequential_interval.hpp; the check by simulation: precision_simulation.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/stats/decision_rule.hpp"
#include "pmoe/stats/target_statistics.hpp"  // CellSample, TargetStatistic

namespace pmoe {

// kWithin: the interval holds the threshold but is no wider than half_width either side (the
// value lies within half_width of the threshold, at the stated error rate): decided, as precise
// as asked.
enum class Verdict { kRunning, kAbove, kBelow, kWithin, kUndecided };
// "running", "above", "below", "within", "undecided"
const char* VerdictName(Verdict verdict);

// A look's verdict from its interval by the one decision rule (stats/decision_rule.hpp):
// kAbove / kBelow when the interval excludes the threshold, kWithin when it is narrow, else
// kUndecided at the last look and kRunning before it.
// `side`: the claimed side, as the rule takes it; the verdict still names where the interval
// lies (a side below turns the rule's "shown" into kBelow), so it never changes a verdict.
Verdict VerdictOf(double estimate, double lo, double hi, double threshold, double half_width,
                  bool last, Side side = Side::kAbove);

struct PrecisionSettings {
  double threshold = 0;      // the value the interval must exclude
  Side side = Side::kAbove;  // the claimed side of the threshold (precision.side)
  double half_width = 0;     // > 0: also stop once the interval is this narrow (each side)
  double alpha = 0.05;       // P(any wrong decision, either side, over all looks) at most
  int budget = 0;            // total trials over all cells at most
  int start = 4;             // trials per cell at the first look
  int looks = 6;             // looks at most, geometric in total trials, the last at the budget
  int bootstrap = 1000;      // replicates of the deciding interval per look
  int allocation_bootstrap = 200;  // replicates per cell for the allocation
  double uniform_share = 0.25;     // of each round's trials spread evenly over the cells
  uint64_t seed = 1;               // of the bootstraps (never of the trials)
  // allocation = cost: each look spends the CPU an even spread of its trials would (its total
  // times the places' mean cost) where a unit of cost narrows the interval most, `cost[c]` being
  // place c's cost per trial (deterministic: the cost model's, never a timing, so that a replay
  // plans the same). Off (allocation = even, the default): every trial counts the same, and
  // files grown before it plan as they did.
  bool cost_aware = false;
  std::vector<double> cost;  // per place, when cost_aware: positive and finite
  // Ignore the spending and decide on a plain 1 - alpha normal interval at every look (no
  // small-sample widening either): the naive rule
  // whose error rate grows with the looks, kept only to show that it does (simulation, tests).
  bool naive = false;
};

// Throws std::invalid_argument naming the setting that is out of range (alpha in (0, 1), budget
// at least start * cells, start >= 2, looks >= 1, bootstrap >= 100, allocation_bootstrap >= 20,
// uniform_share in [0, 1]).
void CheckPrecisionSettings(const PrecisionSettings& s, size_t cells);

struct Look {
  int index = 0;                        // 0, 1, ...
  std::vector<int> trials;              // per cell: trials 0..trials-1 are this look's data
  int total = 0;                        // their sum
  double alpha = 0;                     // spent at this look
  double estimate = 0, lo = 0, hi = 0;  // the interval at level 1 - alpha
  Verdict verdict = Verdict::kRunning;  // kRunning: undecided, more looks to come
};

struct WorkPair {
  size_t cell = 0;
  int trial = 0;
  bool operator==(const WorkPair& o) const { return cell == o.cell && trial == o.trial; }
};

class PrecisionTarget {
 public:
  // A held row's per-trial value (NaN allowed), or nothing when the row is not held.
  using Lookup = std::function<std::optional<double>(size_t cell, int trial)>;

  // `shared_rows[c]`: an id per place on the statistic's curves; places with one id read the
  // same rows (a CNN cell standing on several curves). They get one plan, are counted once in
  // the budget, asked for once and resampled together. Empty: every place its own rows.
  PrecisionTarget(size_t cells, TargetStatistic statistic, const PrecisionSettings& settings,
                  const std::vector<size_t>& shared_rows = {});

  // Evaluates every look whose planned rows are all held, in order, stopping at a decision or the
  // last look; returns the planned rows of the next look that are not held (by cell, then trial
  // index). Empty: decided, or undecided at the budget (see verdict()).
  std::vector<WorkPair> Next(const Lookup& held);

  Verdict verdict() const { return verdict_; }
  const std::vector<Look>& looks() const { return looks_; }
  const std::vector<int>& planned() const { return plan_; }  // per place, of the next look
  const std::vector<int>& totals() const { return totals_; }
  const std::vector<double>& spending() const { return spending_; }

 private:
  Look Evaluate(const std::vector<CellSample>& samples);
  std::vector<int> Allocate(const std::vector<CellSample>& samples, int total) const;
  std::vector<double> VarianceParts(const std::vector<CellSample>& samples) const;
  std::vector<int> SpendByCost(const std::vector<double>& part, std::vector<int> plan,
                               int total) const;

  size_t cells_;
  std::vector<std::vector<size_t>> units_;  // the places of each set of rows, first place first
  TargetStatistic statistic_;
  PrecisionSettings settings_;
  std::vector<int> totals_;
  std::vector<double> spending_;
  std::vector<int> plan_;
  std::vector<Look> looks_;
  Verdict verdict_ = Verdict::kRunning;
};

// One line per look: "look 2: 160 trials, alpha 0.0125, estimate 0.41 [0.12, 0.70]: above".
std::string DescribeLooks(const std::vector<Look>& looks);

}  // namespace pmoe
