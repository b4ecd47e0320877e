// Reading and checking the [claims] declarations of a sweep config (claim_targets.hpp).
#include "pmoe/precision/claim_targets.hpp"

#include <set>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/precision/precision_layout.hpp"
#include "pmoe/sweep/grid/grid.hpp"

namespace pmoe {
namespace {

// "b", "a.separate": letters, digits and '_', in dot-separated parts.
bool ValidId(const std::string& id) {
  if (id.empty() || id.front() == '.' || id.back() == '.' || id.find("..") != std::string::npos)
    return false;
  return id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
         std::string::npos;
}

// The N values of the cells, in the grid's order, once each.
std::vector<std::string> NValues(const std::vector<CellParams>& cells) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const CellParams& p : cells)
    if (auto it = p.find("N"); it != p.end() && seen.insert(it->second).second)
      out.push_back(it->second);
  return out;
}

bool HasWhere(const PrecisionConfig& c, const std::string& param) {
  for (const auto& [name, value] : c.where)
    if (name == param) return true;
  return false;
}

// A per-N declaration is laid out at each N; any other at once.
void CheckLayout(const std::vector<CellParams>& cells, const ClaimTarget& claim,
                 const std::string& path) {
  if (claim.each.empty() || HasWhere(claim.config, "N")) {
    LayoutTargets(cells, claim.config, path);
    return;
  }
  for (const std::string& N : NValues(cells)) {
    PrecisionConfig at_N = claim.config;
    at_N.where.push_back({"N", N});
    LayoutTargets(cells, at_N, path);
  }
}

}  // namespace

ClaimTarget ParseClaimTarget(const std::string& path, const std::string& id,
                             const std::string& text, const PrecisionConfig& base) {
  ClaimTarget claim;
  claim.config = base;
  claim.id = id;
  claim.text = text;
  claim.config.declared_as = "[claims] " + id;
  const std::string section = path + ": [claims] " + id;
  if (!ValidId(id))
    throw ConfigError(path, "claims." + id,
                      "a claim id of letters, digits and '_' (b), optionally a target name after "
                      "a dot (a.separate)",
                      id);
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == word.size())
      throw ConfigError(section + ": \"" + word +
                        "\" is not key=value (the declaration is the [precision] section's "
                        "statistic keys as key=value words: target=exponent over=l ...)");
    const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "each") {
      if (value != "N") throw ConfigError(path, "claims." + id + " each", "N", value);
      claim.each = value;
    } else if (!SetStatisticKey(path, "claims." + id + " " + key, key, value, claim.config)) {
      throw ConfigError(section + ": unknown key \"" + key +
                        "\" (expected target, over, model, baseline, metric, side, reading, "
                        "success_threshold, delta, target_accuracy, threshold, where or each; a "
                        "declaration runs nothing: budget, looks and half_width belong to "
                        "[precision])");
    }
  }
  if (text.find("target=") == std::string::npos)
    throw ConfigError(section +
                      ": needs target= (ratio_exponent, exponent, share, accuracy, "
                      "accuracy_slope, accuracy_difference or rate)");
  FinishStatistic(path, claim.config);
  return claim;
}

std::vector<ClaimTarget> ClaimTargetsOf(const SweepConfig& config) {
  std::vector<ClaimTarget> out;
  if (config.claims.empty()) return out;
  for (const auto& [id, text] : config.claims)  // the INI reader refuses an id set twice
    out.push_back(ParseClaimTarget(config.path, id, text));
  std::vector<CellParams> cells;
  for (const Cell& c : ExpandGrid(config)) cells.push_back(ParseCanonicalKey(c.key));
  for (const ClaimTarget& claim : out) CheckLayout(cells, claim, config.path);
  return out;
}

std::string ClaimTargetText(const ClaimTarget& claim) {
  const PrecisionConfig& c = claim.config;
  return "target=" + c.target + ";over=" + OverText(c) + ";model=" + c.model +
         ";baseline=" + c.baseline + ";metric=" + c.metric +
         ";reading=" + (c.curve.reading == CurveReading::kSuccess ? "success" : "mean_accuracy") +
         ";success_threshold=" + FormatDouble(c.curve.threshold) +
         ";target_accuracy=" + FormatDouble(c.curve.target_accuracy) +
         ";threshold=" + FormatDouble(c.settings.threshold) +
         ";side=" + (c.side == Side::kAbove ? "above" : "below") + ";where=" + WhereText(c) +
         ";each=" + claim.each;
}

void UseClaimTarget(const std::string& path, const SweepConfig& config, PrecisionConfig& section) {
  if (!section.statistic_keys.empty())
    throw ConfigError(path + ": [precision] claim = " + section.claim + " and " +
                      section.statistic_keys.front() +
                      ": the statistic is the claim's declaration in [claims]; state it there "
                      "once and keep only run keys (budget, start, looks, ...) here");
  std::string declared;
  for (const auto& [id, text] : config.claims) {
    if (id != section.claim) {
      declared += (declared.empty() ? "" : ", ") + id;
      continue;
    }
    // The declaration's keys applied over the section's run keys, by the one key parser.
    const ClaimTarget claim = ParseClaimTarget(path, id, text, section);
    if (!claim.each.empty() && !HasWhere(claim.config, "N"))
      throw ConfigError(path + ": [precision] claim = " + id +
                        ": the declaration is read at each N (each=N); a precision run decides "
                        "one: declare a target with where=N=... for it");
    section = claim.config;
    section.declared_as.clear();  // the run is [precision]'s, errors say so
    return;
  }
  throw ConfigError(path, "precision.claim",
                    declared.empty() ? "the id of a [claims] declaration (this config has none)"
                                     : "one of the declared claims: " + declared,
                    section.claim);
}

}  // namespace pmoe
