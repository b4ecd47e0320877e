// A sweep config (DESIGN.md): name, seed, trials per cell, the base parameters of [data] and
// [model] (and N, N_test, success), and the [grid] axes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"
#include "pmoe/sweep/adaptive/psi_search.hpp"
#include "pmoe/sweep/grid/axis.hpp"
#include "pmoe/sweep/grid/config_section.hpp"

namespace pmoe {

struct SweepConfig {
  std::string path;
  std::string text;  // the file as read, recorded with the results
  std::string name;  // default: the file's stem
  uint64_t seed = 1;
  int trials = 20;
  TrialSpec base;
  std::vector<std::string> base_keys;  // the parameters the file sets outside [grid], in order
  // In file order, the last varying fastest; an axis of a section [grid.KIND] applies to the
  // cells of that model kind only (the others keep their base value and ignore it).
  std::vector<Axis> axes;
  // Per-model overrides from sections [model.KIND] (e.g. [model.joint] k = 8): applied to the
  // cells whose model.kind is KIND, after the axes, so one sweep can compare models whose
  // parameters differ. Pairs of (kind, (parameter, value)), in file order.
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> overrides;
  // [adaptive]: each series searches its N* round by round (adaptive_config.hpp); the grid's
  // last axis is then N over the search's candidates, and `trials` is the budget per series.
  std::optional<AdaptiveSettings> adaptive;
  // A registered section (config_section.hpp), e.g. [precision]: trials are added until a
  // target's interval excludes its threshold; `trials` is then the budget, the most one cell may
  // get. Null for a grid or an adaptive search.
  std::shared_ptr<const ConfigSection> section;
  // [claims]: the targets that decide the claims this sweep tests, in file order: id ("b",
  // "a.separate") and the target's statistic keys as "key=value" words. They run nothing: the
  // claim pages read them, and [precision] claim = ID runs one (precision/claim_targets.hpp).
  std::vector<std::pair<std::string, std::string>> claims;
};

// Throws ConfigError naming the file, key, value and expectation for anything malformed.
SweepConfig LoadSweepConfig(const std::string& path);

// A work source decides how many trials each cell gets (adaptive search, precision targets):
// `trials` is then only the most one cell could get.
bool TrialsDecidedByRounds(const SweepConfig& config);
SweepConfig ParseSweepConfig(const std::string& path, const std::string& text);

}  // namespace pmoe
