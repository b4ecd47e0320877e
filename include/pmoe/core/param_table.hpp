// Every parameter of a TrialSpec, with its dotted name ("data.delta_r", "model.lr", "N"), default
// and meaning in one table. The command line, config files, seeds and result files all read it.
#pragma once

#include <functional>
#include <utility>
#include <string>
#include <vector>

#include "pmoe/core/spec.hpp"

namespace pmoe {

enum class ParamType { kInt, kDouble, kBool, kChoice, kString };

struct ParamInfo {
  std::string name;     // dotted: "N", "data.n", "model.lr"
  ParamType type;
  std::string help;     // one line
  std::vector<std::string> choices;  // kChoice only
  std::function<std::string(const TrialSpec&)> get;            // canonical text of the value
  std::function<void(TrialSpec&, const std::string&)> assign;  // parsed; throws on bad syntax
  // The data models this data.* parameter applies to; empty: all. A parameter that does not
  // apply to a spec's data model is left out of its canonical keys (seeds, cell ids).
  std::vector<std::string> data_models;

  bool AppliesTo(const TrialSpec& spec) const;
};

// All parameters, in display order: top-level first, then [data], then [model].
const std::vector<ParamInfo>& ParamTable();

// nullptr when the name is unknown.
const ParamInfo* FindParam(const std::string& name);

// Parses `value` into spec's parameter `name`; ConfigError names `where`, the key, the value and
// the expected form when either the name or the value is bad.
void SetParam(TrialSpec& spec, const std::string& name, const std::string& value,
              const std::string& where);

std::string GetParam(const TrialSpec& spec, const std::string& name);

// "name=value;..." over the parameters whose name starts with `prefix` ("" for all), in table
// order: the canonical text that seeds and cell keys are hashed from.
std::string CanonicalKey(const TrialSpec& spec, const std::string& prefix);

// The (name, value) pairs of a canonical key, in its order: CanonicalKey's inverse.
std::vector<std::pair<std::string, std::string>> SplitCanonicalKey(const std::string& key);

// An integer >= min from text, else ConfigError "where: key = "text": expected an integer >= min"
// (run options such as trials and seed, which are not TrialSpec parameters).
long long ParseIntegerAtLeast(const std::string& where, const std::string& key,
                              const std::string& text, long long min);

// Shortest decimal text that parses back to exactly `value`.
std::string FormatDouble(double value);

}  // namespace pmoe
