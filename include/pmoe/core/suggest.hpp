// "Did you mean": the nearest of a set of names to a misspelt one, for unknown options and keys.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// Edit distance with adjacent transpositions (optimal string alignment), case-insensitive.
size_t EditDistance(const std::string& a, const std::string& b);

// The candidate closest to `word`, or "" when none is close enough to be a likely typo: within
// a third of the word's length (at least 2 edits), or a candidate that `word` is a dotted suffix
// of ("delta_d" -> "data.delta_d"). `-` and `_` count as the same letter.
std::string NearestName(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean \"data.delta_d\"?)" for an unknown parameter name, or "" when none is near.
std::string DidYouMeanParam(const std::string& name);

// The "did you mean" of an unknown config key (an INI file's [section] key, read as
// "section.key"): a misspelt section ("gird.N" -> " (did you mean [grid]?)") among `sections`, a
// misspelt top-level key ("trails" -> " (did you mean \"trials\"?)") among `top_level`, else
// DidYouMeanParam's; "" when nothing is near.
std::string DidYouMeanConfigKey(const std::string& key, const std::vector<std::string>& sections,
                                const std::vector<std::string>& top_level);

}  // namespace pmoe
