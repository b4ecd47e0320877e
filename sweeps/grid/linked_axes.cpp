// Axes that move together: a zip of several parameters stepping through tuples, and a rule that
// derives a parameter in each cell from the others (axis.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/sweep/grid/axis.hpp"

namespace pmoe {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

bool Numeric(const ParamInfo& p) {
  return p.type == ParamType::kInt || p.type == ParamType::kDouble;
}

// A rule's name: a full parameter name, or the part after the dot of exactly one ("k": model.k).
std::string ResolveName(const std::string& where, const std::string& rule_key,
                        const std::string& name) {
  if (FindParam(name) != nullptr) return name;
  std::vector<std::string> matches;
  for (const ParamInfo& p : ParamTable()) {
    const size_t dot = p.name.rfind('.');
    if (dot != std::string::npos && p.name.substr(dot + 1) == name) matches.push_back(p.name);
  }
  if (matches.size() == 1) return matches[0];
  throw ConfigError(where + ": " + rule_key + ": ${" + name + "} is " +
                    (matches.empty() ? "not a parameter (expected N, N_test, or a data.* or "
                                       "model.* parameter of pmoe-sim --help)"
                                     : "ambiguous: write one of " + Join(matches)));
}

}  // namespace

Axis ParseZippedAxis(const std::string& where, const std::string& names, const std::string& text) {
  const std::string key = "grid." + names;
  const std::vector<std::string> params = SplitTrimmed(names, ',');
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].empty() || FindParam(params[i]) == nullptr)
      throw ConfigError(where + ": [grid] " + names + ": \"" + params[i] +
                        "\" is not a parameter (a zip names parameters separated by commas, "
                        "e.g. model.k, model.m = (2, 10), (4, 20))");
    for (size_t j = 0; j < i; ++j)
      if (params[j] == params[i])
        throw ConfigError(where + ": [grid] " + names + ": " + params[i] + " is zipped twice");
  }
  const std::string expected = "tuples of " + std::to_string(params.size()) +
                               " values, one per parameter (" + Join(params) +
                               "), like (2, 10), (4, 20), (8, 40)";
  Axis axis;
  axis.name = params[0];
  for (size_t j = 1; j < params.size(); ++j) axis.zipped.push_back({params[j], {}});
  // "(2, 10), (4, 20)": a "(", values up to the ")", then a comma or the end.
  const std::string t = TrimBlanks(text);
  // The axis limit, by the tuples' count, before any is expanded (100 001 tuples took 326 MB).
  RequireAxisLength(where, names, text, static_cast<double>(std::count(t.begin(), t.end(), '(')));
  size_t at = 0;
  while (at < t.size()) {
    if (t[at] != '(') throw ConfigError(where, key, expected, text);
    const size_t close = t.find(')', at);
    if (close == std::string::npos) throw ConfigError(where, key, expected, text);
    const std::string tuple = t.substr(at, close - at + 1);
    const std::vector<std::string> values = SplitTrimmed(t.substr(at + 1, close - at - 1), ',');
    const size_t step = axis.values.size() + 1;
    if (values.size() != params.size())
      throw ConfigError(where + ": [grid] " + names + ": tuple " + std::to_string(step) + " " +
                        tuple + " has " + std::to_string(values.size()) + " value" +
                        (values.size() == 1 ? "" : "s") + ", expected " +
                        std::to_string(params.size()) + " (" + Join(params) + ")");
    for (size_t j = 0; j < params.size(); ++j) {
      TrialSpec probe;  // each value parses for its parameter, or the file is named now
      if (values[j].empty())
        throw ConfigError(where + ": [grid] " + names + ": tuple " + std::to_string(step) + " " +
                          tuple + " has an empty value for " + params[j]);
      SetParam(probe, params[j], values[j], where + ": [grid] " + names);
      (j == 0 ? axis.values : axis.zipped[j - 1].second).push_back(values[j]);
    }
    at = t.find_first_not_of(" \t", close + 1);
    if (at == std::string::npos) break;
    if (t[at] != ',') throw ConfigError(where, key, expected, text);
    at = t.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos) throw ConfigError(where, key, expected, text);
  }
  if (axis.values.empty()) throw ConfigError(where, key, expected, text);
  for (const auto& [name, values] : axis.zipped)
    axis.note += (axis.note.empty() ? "zipped with " : "; ") + name + ": " + Join(values);
  return axis;
}

Axis ParseRule(const std::string& where, const std::string& name, const std::string& text) {
  const ParamInfo* target = FindParam(name);
  if (target == nullptr)
    throw ConfigError(where + ": " + name +
                      ": not a parameter (expected N, N_test, or a data.* or model.* "
                      "parameter of pmoe-sim --help)");
  const std::string key = name + " = " + TrimBlanks(text);
  if (!Numeric(*target))
    throw ConfigError(where + ": " + key + ": a rule sets a numeric parameter; " + name +
                      " is not one");
  Expression parsed;
  try {
    parsed = Expression::Parse(TrimBlanks(text));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(where + ": " + name + ": the rule " + e.what() +
                      " (a rule is arithmetic, + - * / and parentheses, over numbers and "
                      "${parameter} references, e.g. 5 * ${model.k})");
  }
  if (parsed.names().empty())
    throw ConfigError(where + ": " + key +
                      ": a rule refers to some ${parameter}; for a fixed "
                      "value write the number");
  auto resolve = [&](const std::string& n) {
    const std::string full = ResolveName(where, key, n);
    if (!Numeric(*FindParam(full)))
      throw ConfigError(where + ": " + key + ": " + full + " is not a number");
    if (full == name) throw ConfigError(where + ": " + key + ": a rule cannot refer to itself");
    return full;
  };
  Axis axis;
  axis.name = name;
  axis.rule = Expression::Parse(parsed.Rewrite(resolve));
  axis.values = {TrimBlanks(text)};
  axis.note = "a rule: set in each cell from its other parameters";
  return axis;
}

std::string EvaluateRule(const Axis& rule, const TrialSpec& spec, const std::string& where) {
  std::string read;
  const double value = rule.rule->Evaluate([&](const std::string& name) {
    const std::string text = GetParam(spec, name);
    read += (read.empty() ? "" : ", ") + name + "=" + text;
    return std::strtod(text.c_str(), nullptr);
  });
  const std::string what = where + ": " + rule.name + " = " + rule.values[0] + " gives ";
  if (!std::isfinite(value)) throw ConfigError(what + "no finite number where " + read);
  if (FindParam(rule.name)->type == ParamType::kDouble) return FormatDouble(value);
  const double nearest = std::round(value);
  if (std::abs(value - nearest) > 1e-9 * std::max(1.0, std::abs(value)) ||
      std::abs(nearest) > 9007199254740992.0)
    throw ConfigError(what + FormatDouble(value) + " where " + read + ": " + rule.name +
                      " takes integers");
  return std::to_string(static_cast<long long>(nearest));
}

}  // namespace pmoe
