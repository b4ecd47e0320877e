#include "pmoe/sweep/adaptive/adaptive_config.hpp"

#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

// The identity's settings are read by SetAdaptiveKey too; only there may they name a method.
const char* const kIdentityPath = "adaptive identity";

double ParseFraction(const std::string& path, const std::string& key, const std::string& text,
                     double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(v > lo && v < hi))
    throw ConfigError(path, key, "a number in (" + FormatDouble(lo) + ", " + FormatDouble(hi) + ")",
                      text);
  return v;
}

}  // namespace

void SetAdaptiveKey(const std::string& path, const std::string& key, const std::string& value,
                    AdaptiveSettings& s) {
  const std::string name = "adaptive." + key;
  if (key == "N_min")
    s.N_min = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 10000000));
  else if (key == "N_max")
    s.N_max = static_cast<int>(ParseIntegerInRange(path, name, value, 2, 10000000));
  else if (key == "target")
    s.target = ParseFraction(path, name, value, 0, 10);
  else if (key == "budget")
    s.budget = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 100000));
  else if (key == "round")
    s.round = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 64));
  else if (key == "threshold")
    s.threshold = ParseFraction(path, name, value, 0.02, 0.98);
  else if (key == "steps_per_doubling")
    s.steps_per_doubling = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 32));
  else if (key == "method" && path == kIdentityPath)
    s.method = static_cast<int>(ParseIntegerInRange(path, name, value, 1, 1000));
  else
    throw ConfigError(path + ": unknown key \"" + name +
                      "\" (expected adaptive.N_min, N_max, "
                      "target, budget, round, threshold or steps_per_doubling)");
}

void FinishAdaptive(SweepConfig& config, bool trials_set) {
  AdaptiveSettings& s = *config.adaptive;
  const std::string& path = config.path;
  if (s.N_min == 0 || s.N_max == 0)
    throw ConfigError(path + ": [adaptive] needs N_min and N_max (the range of N searched)");
  if (s.N_min >= s.N_max)
    throw ConfigError(path + ": [adaptive] N_min = " + std::to_string(s.N_min) +
                      " must be below N_max = " + std::to_string(s.N_max));
  if (s.round > s.budget)
    throw ConfigError(path + ": [adaptive] round = " + std::to_string(s.round) +
                      " trials exceeds the budget of " + std::to_string(s.budget));
  if (trials_set)
    throw ConfigError(path +
                      ": trials: an adaptive sweep decides its trials itself; set "
                      "adaptive.budget (trials per series at most) instead");
  for (const Axis& axis : config.axes)
    if (axis.name == "N")
      throw ConfigError(path +
                        ": [grid] N: an adaptive sweep chooses N itself within "
                        "[adaptive] N_min..N_max; remove the N axis");
  Axis n_axis;
  n_axis.name = "N";
  for (int n : CandidateNs(s)) n_axis.values.push_back(std::to_string(n));
  n_axis.note = "candidates of the adaptive search";
  config.axes.push_back(n_axis);
  // A cell may get every trial of its series' budget.
  config.trials = s.budget;
}

std::string AdaptiveIdentity(const AdaptiveSettings& s) {
  return "N_min=" + std::to_string(s.N_min) + ";N_max=" + std::to_string(s.N_max) +
         ";target=" + FormatDouble(s.target) + ";budget=" + std::to_string(s.budget) +
         ";round=" + std::to_string(s.round) + ";threshold=" + FormatDouble(s.threshold) +
         ";steps_per_doubling=" + std::to_string(s.steps_per_doubling) +
         ";method=" + std::to_string(s.method);
}

AdaptiveSettings ParseAdaptiveIdentity(const std::string& text) {
  AdaptiveSettings s;
  s.method = 1;  // the first version wrote no method
  for (const auto& [key, value] : SplitCanonicalKey(text))
    SetAdaptiveKey(kIdentityPath, key, value, s);
  if (s.N_min == 0 || s.N_max <= s.N_min)
    throw ConfigError("adaptive identity \"" + text + "\": no N range");
  if (s.method != kAdaptiveMethod)
    throw ConfigError(
        "adaptive identity \"" + text + "\": searched by method " + std::to_string(s.method) +
        " of the adaptive search; this build runs method " + std::to_string(kAdaptiveMethod) +
        " (another algorithm: the file cannot be continued or replayed by it)");
  return s;
}

}  // namespace pmoe
