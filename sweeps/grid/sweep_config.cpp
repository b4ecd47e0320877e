// Reading a sweep config: every key must be known, every value parses, every axis is well formed.
#include "pmoe/sweep/grid/sweep_config.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/suggest.hpp"
#include "pmoe/io/ini_file.hpp"
#include "pmoe/sweep/grid/config_section.hpp"
#include "pmoe/sweep/grid/grid.hpp"

namespace pmoe {
namespace {

// "model.joint.k" -> "joint" when joint is a model kind; "" otherwise. `section` is "model" for
// parameter overrides, "grid" for axes that apply to one kind ("grid.joint.model.l").
std::string KindSection(const std::string& key, const std::string& section = "model") {
  for (const std::string& kind : FindParam("model.kind")->choices) {  // the model families
    const std::string prefix = section + "." + kind + ".";
    if (key.rfind(prefix, 0) == 0) return kind;
  }
  return "";
}

// An axis of [grid.KIND]: the parameter, applied to KIND's cells only.
Axis KindAxis(const SweepConfig& config, const std::string& kind, const std::string& key,
              const std::string& value) {
  const std::string name = key.substr(std::string("grid.").size() + kind.size() + 1);
  if (name == "model.kind")
    throw ConfigError(config.path + ": [grid." + kind +
                      "] model.kind: the model kind cannot "
                      "be restricted to a model kind (sweep it in [grid])");
  for (const Axis& axis : config.axes)
    if (axis.name == name)
      throw ConfigError(config.path + ": [grid." + kind + "] " + name + ": " + name +
                        " is already an axis" +
                        (axis.kinds.empty() ? " of [grid]" : " of [grid." + axis.kinds[0] + "]") +
                        "; one parameter, one axis");
  Axis axis = ParseAxis(config.path, name, value);
  axis.kinds = {kind};
  return axis;
}

// One parameter, one axis, zipped names and rules included; a rule reads only what is set before
// it runs: axes, overrides and earlier rules (a later rule's parameter would still have its base
// value, which is never what its author meant).
void CheckLinkedAxes(const SweepConfig& config) {
  std::vector<std::string> seen;
  for (const Axis& axis : config.axes)
    for (const std::string& name : axis.Names()) {
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        throw ConfigError(config.path + ": " + name +
                          " is set by two axes, zips or rules; one "
                          "parameter, one axis");
      seen.push_back(name);
    }
  for (size_t a = 0; a < config.axes.size(); ++a) {
    if (!config.axes[a].rule) continue;
    for (const std::string& read : config.axes[a].rule->names())
      for (size_t later = a + 1; later < config.axes.size(); ++later)
        if (config.axes[later].rule && config.axes[later].name == read)
          throw ConfigError(config.path + ": " + config.axes[a].name + " = " +
                            config.axes[a].values[0] + " reads " + read +
                            ", which a later rule sets: put the rule for " + read + " first");
  }
}

// "precision.budget" -> "precision" when a work source registered that section; "" otherwise.
std::string RegisteredSectionOf(const std::string& key) {
  for (const std::string& name : RegisteredSections())
    if (key.rfind(name + ".", 0) == 0) return name;
  return "";
}

// A key no section reads, with the closest known one and the sections the registered work
// sources add.
ConfigError UnknownKey(const std::string& path, const std::string& key) {
  std::vector<std::string> sections = {"data", "model", "grid", "claims"};
  std::string settings;  // "[adaptive] or a [precision]"
  for (const std::string& name : RegisteredSections()) {
    sections.push_back(name);
    settings += (settings.empty() ? "[" : " or a [") + name + "]";
  }
  return ConfigError(path + ": unknown key \"" + key + "\"" +
                     DidYouMeanConfigKey(key, sections, {"name", "seed", "trials"}) +
                     " (expected name, seed, "
                     "trials, N, N_test, success, a [data] or [model] parameter of "
                     "pmoe-sim --help, a [model.KIND] override, a [grid] axis" +
                     (settings.empty() ? "" : ", an " + settings + " setting") + ")");
}

// [grid] NAME = VALUES: one more axis, unless [grid.KIND] made NAME an axis already.
void AddGridAxis(const std::string& path, const std::string& name, const std::string& values,
                 SweepConfig& config) {
  for (const Axis& axis : config.axes)
    if (axis.name == name)
      throw ConfigError(path + ": [grid] " + name + " is already an axis of [grid." +
                        axis.kinds.at(0) + "]; one parameter, one axis");
  config.axes.push_back(ParseAxis(path, name, values));
}

// [model.KIND] key = value: a setting of KIND's cells only, checked now (naming the file).
void AddKindOverride(const std::string& path, const std::string& kind, const IniEntry& entry,
                     SweepConfig& config) {
  const std::string param =
      "model." + entry.key.substr(std::string("model.").size() + kind.size() + 1);
  TrialSpec probe;
  SetParam(probe, param, entry.value, path);
  config.overrides.push_back({kind, {param, entry.value}});
}

// The name becomes results/NAME.h5 and the Slurm job name: one file name of safe characters
// (letters, digits, . _ - +, not starting with . or -), so that it never needs quoting and no
// newline or $(...) reaches a script through it (issue 28). Without `name`, it is the config
// file's stem, which must then be such a name too.
void CheckName(const std::string& path, const std::string& name) {
  const bool safe = !name.empty() && name.size() <= 100 && name[0] != '.' && name[0] != '-' &&
                    name.find_first_not_of(
                        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789._-+") == std::string::npos;
  if (!safe)
    throw ConfigError(path, "name",
                      "a name of letters, digits, '.', '_', '-' and '+', not starting with '.' "
                      "or '-', at most 100 characters (results/NAME.h5 and the Slurm job name; "
                      "without a name = line it is the config file's name)",
                      name);
}

}  // namespace

SweepConfig ParseSweepConfig(const std::string& path, const std::string& text) {
  const IniFile ini = ParseIniText(path, text);
  SweepConfig config;
  config.path = path;
  config.text = text;
  config.name = std::filesystem::path(path).stem().string();
  bool trials_set = false;
  std::unique_ptr<ConfigSection> section;  // a registered section's keys ([adaptive], [precision])
  std::string section_name;
  for (const IniEntry& entry : ini.entries) {
    if (const std::string kind = KindSection(entry.key, "grid"); !kind.empty()) {
      config.axes.push_back(KindAxis(config, kind, entry.key, entry.value));
    } else if (entry.key.rfind("grid.", 0) == 0) {
      AddGridAxis(path, entry.key.substr(5), entry.value, config);
    } else if (const std::string kind = KindSection(entry.key); !kind.empty()) {
      AddKindOverride(path, kind, entry, config);
    } else if (entry.key.rfind("claims.", 0) == 0) {
      config.claims.push_back({entry.key.substr(7), entry.value});
    } else if (const std::string name = RegisteredSectionOf(entry.key); !name.empty()) {
      if (section && name != section_name)
        throw ConfigError(path + ": [" + section_name + "] and [" + name + "]: choose one");
      if (!section) section = MakeConfigSection(section_name = name);
      section->Set(path, entry.key.substr(name.size() + 1), entry.value);
    } else if (entry.key == "name") {
      config.name = entry.value;
    } else if (entry.key == "seed") {
      config.seed =
          static_cast<uint64_t>(ParseIntegerInRange(path, "seed", entry.value, 0, INT64_MAX));
    } else if (entry.key == "trials") {
      trials_set = true;
      config.trials =
          static_cast<int>(ParseIntegerInRange(path, "trials", entry.value, 1, kMaxTrials));
    } else if (FindParam(entry.key) != nullptr && entry.value.find("${") != std::string::npos) {
      config.axes.push_back(ParseRule(path, entry.key, entry.value));  // N_test = 100 * ${n}
    } else if (FindParam(entry.key) != nullptr) {
      SetParam(config.base, entry.key, entry.value, path);
      config.base_keys.push_back(entry.key);
    } else {
      throw UnknownKey(path, entry.key);
    }
  }
  CheckName(path, config.name);
  CheckLinkedAxes(config);
  CheckClaims(config);
  if (section) {
    section->Finish(path, trials_set, config);
    config.section = std::move(section);
  }
  return config;
}

bool TrialsDecidedByRounds(const SweepConfig& config) { return config.section != nullptr; }

SweepConfig LoadSweepConfig(const std::string& path) {
  const IniFile ini = ReadIniFile(path);
  return ParseSweepConfig(path, ini.text);
}

}  // namespace pmoe
