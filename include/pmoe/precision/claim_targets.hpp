// A claim's declared targets. The [claims] section of a sweep config names, for each claim the
// sweep tests, the target statistic(s) that decide it, in the [precision] section's statistic
// keys (precision_config.hpp) written as key=value words:
//   [claims]
//   b = target=exponent over=l model=separate reading=success delta=0.1 threshold=0.2 side=above
//   a.separate = target=share model=separate reading=mean_accuracy threshold=0.9 side=below
//   a.separate_accuracy = target=accuracy_difference model=separate threshold=0.01 each=N
// A declaration runs nothing. The claim pages read it (`pmoe-analyze claims FILE`) and
// `[precision] claim = b` runs it until decided, so a quick page, a reference page and a
// precision run decide on one declaration. `each = N`: the statistic is read at every N of the
// grid (a page's per-N condition); a precision run of it needs where = N=....
#pragma once

#include <string>
#include <vector>

#include "pmoe/precision/precision_config.hpp"

namespace pmoe {

struct SweepConfig;

struct ClaimTarget {
  std::string id;          // "b", "a.separate": the claim, then optionally the target's name
  std::string text;        // the declaration as the file gave it
  PrecisionConfig config;  // its statistic keys (run keys stay at their defaults)
  std::string each;        // "N": read at each value of N; "" otherwise
};

// One declaration, its keys applied over `base` (a [precision] section's run keys, or none);
// ConfigError naming the file, the claim and what was expected.
ClaimTarget ParseClaimTarget(const std::string& path, const std::string& id,
                             const std::string& text, const PrecisionConfig& base = {});

// Every declaration of the config, in file order, each checked against the config's grid as a
// precision target is (its cells exist, a model named where the cells hold several kinds, where
// on parameters the cells read); ConfigError naming the file and the claim.
std::vector<ClaimTarget> ClaimTargetsOf(const SweepConfig& config);

// The statistic keys as canonical text, every key present:
// "target=exponent;over=model.l;model=separate;baseline=cnn;metric=;reading=success;
//  success_threshold=0.9;target_accuracy=0.95;threshold=0.2;side=above;where=;each=".
std::string ClaimTargetText(const ClaimTarget& claim);

// [precision] claim = ID: the section's statistic becomes declaration ID's (its run keys stay).
// ConfigError when the section also states statistic keys (a claim is declared once), when no
// declaration has that id (the declared ones listed), or when an each = N declaration is run
// without where = N=....
void UseClaimTarget(const std::string& path, const SweepConfig& config, PrecisionConfig& section);

}  // namespace pmoe
