// Reading a sweep config: every key must be known, every value parses, every axis is well formed.
#include "pmoe/sweep/sweep_config.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/ini_file.hpp"

namespace pmoe {
namespace {

// "model.joint.k" -> "joint" when joint is a model kind; "" otherwise.
std::string OverrideKind(const std::string& key) {
  for (const std::string& kind : FindParam("model.kind")->choices) {  // the model families
    const std::string prefix = "model." + kind + ".";
    if (key.rfind(prefix, 0) == 0) return kind;
  }
  return "";
}

}  // namespace

SweepConfig ParseSweepConfig(const std::string& path, const std::string& text) {
  const IniFile ini = ParseIniText(path, text);
  SweepConfig config;
  config.path = path;
  config.text = text;
  config.name = std::filesystem::path(path).stem().string();
  for (const IniEntry& entry : ini.entries) {
    if (entry.key.rfind("grid.", 0) == 0) {
      config.axes.push_back(ParseAxis(path, entry.key.substr(5), entry.value));
    } else if (const std::string kind = OverrideKind(entry.key); !kind.empty()) {
      const std::string param = "model." + entry.key.substr(std::string("model.").size() +
                                                            kind.size() + 1);
      TrialSpec probe;  // checks the parameter and its value now, naming the file
      SetParam(probe, param, entry.value, path);
      config.overrides.push_back({kind, {param, entry.value}});
    } else if (entry.key == "name") {
      config.name = entry.value;
    } else if (entry.key == "seed") {
      config.seed =
          static_cast<uint64_t>(ParseIntegerInRange(path, "seed", entry.value, 0, INT64_MAX));
    } else if (entry.key == "trials") {
      config.trials =
          static_cast<int>(ParseIntegerInRange(path, "trials", entry.value, 1, kMaxTrials));
    } else if (FindParam(entry.key) != nullptr) {
      SetParam(config.base, entry.key, entry.value, path);
      config.base_keys.push_back(entry.key);
    } else {
      throw ConfigError(path + ": unknown key \"" + entry.key + "\" (expected name, seed, "
                        "trials, N, N_test, success, a [data] or [model] parameter of "
                        "pmoe-sim --help, a [model.KIND] override or a [grid] axis)");
    }
  }
  // The name becomes results/NAME.h5: it must be one file name, not a path.
  if (config.name.empty() || config.name == "." || config.name == ".." ||
      config.name.find('/') != std::string::npos)
    throw ConfigError(path, "name", "a file name without '/' (results/NAME.h5 is written)",
                      config.name);
  return config;
}

SweepConfig LoadSweepConfig(const std::string& path) {
  const IniFile ini = ReadIniFile(path);
  return ParseSweepConfig(path, ini.text);
}

}  // namespace pmoe
