// Target kinds: the statistic each computes over its places and the value each trial gives it.
#include "pmoe/stats/target_kind.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

#include "pmoe/core/param_table.hpp"  // FormatDouble (pmoe_base)

namespace pmoe {
namespace {

// "" when every place has one N; else what to do, listing the N values.
std::string OneN(const std::vector<CurveCell>& curve) {
  std::set<double> N;
  for (const CurveCell& c : curve) N.insert(c.N);
  if (N.size() == 1) return "";
  std::string list;
  for (double n : N) list += (list.empty() ? "" : ", ") + FormatDouble(n);
  return "it reads one N: select it with where = N=V (its cells have N = " + list + ")";
}

}  // namespace

bool TargetIsPaired(const std::string& t) {
  return t == "ratio_exponent" || t == "share" || t == "accuracy_difference";
}

bool TargetReadsAxis(const std::string& t) {
  return t == "exponent" || t == "ratio_exponent" || t == "accuracy_slope";
}

TrialReading TrialReadingOf(const std::string& t, CurveReading reading) {
  if (t == "rate") return TrialReading::kMetric;
  const bool accuracy = t == "accuracy" || t == "accuracy_slope" || t == "accuracy_difference" ||
                        reading == CurveReading::kMeanAccuracy;
  return accuracy ? TrialReading::kAccuracy : TrialReading::kSuccess;
}

double TrialValue(TrialReading reading, bool ok, bool success, double test_acc, double metric) {
  switch (reading) {
    case TrialReading::kMetric:
      return metric;
    case TrialReading::kAccuracy:
      return ok ? test_acc : NAN;
    case TrialReading::kSuccess:
      break;
  }
  return success ? 1.0 : 0.0;
}

TargetStatistic TargetStatisticOf(const std::string& t, const std::vector<CurveCell>& curve,
                                  const CurveSettings& settings) {
  if (t == "exponent" || t == "ratio_exponent") return NStarExponent(curve, settings);
  if (t == "share") return NStarShare(curve, settings);
  if (t != "accuracy" && t != "accuracy_slope" && t != "accuracy_difference" && t != "rate")
    throw std::invalid_argument("unknown target kind " + t);
  if (const std::string problem = OneN(curve); !problem.empty())
    throw std::invalid_argument(problem);
  if (t == "accuracy_slope") {
    std::vector<double> x;
    std::set<double> axis;
    for (const CurveCell& cell : curve) x.push_back(cell.axis), axis.insert(cell.axis);
    if (axis.size() != curve.size() || axis.size() < 2)
      throw std::invalid_argument("it needs one cell at each of at least two axis values");
    return MeanSlope(x);
  }
  const bool paired = TargetIsPaired(t);
  size_t at[2] = {curve.size(), curve.size()};  // the place of each side
  for (size_t i = 0; i < curve.size(); ++i) {
    const int side = curve[i].side;
    if (at[side] != curve.size())
      throw std::invalid_argument(
          "it reads one cell per model, and the cells differ in more "
          "than N and the model (narrow them with where)");
    at[side] = i;
  }
  if (at[0] == curve.size() || (paired && at[1] == curve.size()))
    throw std::invalid_argument("it needs a cell of " +
                                (paired ? "both models" : std::string("its model")));
  if (t == "accuracy_difference") return MeanDifference(at[1], at[0]);
  return CellMean(at[0]);  // accuracy, rate
}

}  // namespace pmoe
