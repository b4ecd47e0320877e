// The text of keys and numbers that every layer reads, the analysis included: splitting a
// canonical key, integers with their range, doubles printed to round-trip. No parameter table
// here, so that a program reading result files links this without the simulator.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

bool ParseLongLong(const std::string& text, long long* v) {
  errno = 0;
  char* end = nullptr;
  *v = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0' && errno == 0;
}

std::string IntegerRange(long long min, long long max) {
  return "an integer in " + std::to_string(min) + ".." + std::to_string(max);
}

}  // namespace

std::set<std::string> ParamsSetPerKind(
    const std::vector<std::map<std::string, std::string>>& cells) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> values;  // name, kind
  for (const auto& params : cells) {
    const auto kind = params.find("model.kind");
    if (kind == params.end()) continue;
    for (const auto& [name, value] : params) values[name][kind->second].insert(value);
  }
  std::set<std::string> per_kind;
  for (const auto& [name, by_kind] : values) {
    bool one_each = by_kind.size() >= 2;
    for (const auto& [kind, set] : by_kind) one_each = one_each && set.size() == 1;
    if (one_each) per_kind.insert(name);
  }
  return per_kind;
}

bool CellsPair(const std::map<std::string, std::string>& baseline,
               const std::map<std::string, std::string>& other,
               const std::set<std::string>& ignored) {
  for (const auto& [name, value] : baseline) {
    if (name == "N" || name == "model.kind" || ignored.count(name)) continue;
    const auto it = other.find(name);
    if (it != other.end() && it->second != value) return false;
  }
  return true;
}

std::string TrimBlanks(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

std::vector<std::string> SplitTrimmed(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    parts.push_back(TrimBlanks(text.substr(start, end - start)));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::vector<std::pair<std::string, std::string>> SplitCanonicalKey(const std::string& key) {
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t start = 0;
  while (start < key.size()) {
    const size_t end = std::min(key.find(';', start), key.size()), eq = key.find('=', start);
    if (eq == std::string::npos || eq > end) break;
    pairs.emplace_back(key.substr(start, eq - start), key.substr(eq + 1, end - eq - 1));
    start = end + 1;
  }
  return pairs;
}

long long ParseIntegerInRange(const std::string& where, const std::string& key,
                              const std::string& text, long long min, long long max) {
  long long v = 0;
  if (!ParseLongLong(text, &v) || v < min || v > max)
    throw ConfigError(where, key, IntegerRange(min, max), text);
  return v;
}

long long ParseIntegerAtLeast(const std::string& where, const std::string& key,
                              const std::string& text, long long min) {
  long long v = 0;
  if (!ParseLongLong(text, &v) || v < min)
    throw ConfigError(where, key, "an integer >= " + std::to_string(min), text);
  return v;
}

std::string FormatDouble(double value) {
  char buf[40];
  // Start with as many digits as the integer part has, so that 10 prints as "10", not "1e+01".
  const double magnitude = std::abs(value);
  const int integer_digits = magnitude >= 1 && magnitude < 1e17
                                 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1
                                 : 1;
  for (int precision = integer_digits; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

}  // namespace pmoe
