// Option parsing of pmoe-sim with Boost.Program_options. All values are read as text and handed
// to the parameter table, so the command line and config files share one parser and one set of
// error messages. Precedence: command line, then --config file, then defaults.
#include "sim_options.hpp"

#include <boost/program_options.hpp>
#include <cstdint>
#include <iostream>
#include <map>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/ini_file.hpp"

namespace po = boost::program_options;

namespace pmoe {
namespace {

const std::map<std::string, std::string>& ShortNames() {
  static const std::map<std::string, std::string> names = {
      {"data", "data.model"}, {"model", "model.kind"},    {"n", "data.n"},
      {"d", "data.d"},        {"l", "model.l"},           {"k", "model.k"},
      {"m", "model.m"},       {"epochs", "model.epochs"}, {"idx-dir", "data.idx_dir"}};
  return names;
}

po::options_description RunOptions() {
  po::options_description run("Run");
  run.add_options()("help,h", "print this help and exit")(
      "config", po::value<std::string>(),
      "read [data] and [model] (and N, seed, trials) from "
      "this sweep-format INI file; the command line overrides it")(
      "trials", po::value<std::string>(), "trials to run (default: 20)")(
      "seed", po::value<std::string>(), "master seed (default: 1)")(
      "threads", po::value<std::string>(), "worker threads (default: 0 = all cores)")(
      "json", "print every trial and the summary as JSON")(
      "no-early-stop", "train for exactly model.epochs epochs (same as --model.early_stop false)")(
      "name", po::value<std::string>(), "accepted for sweep configs; unused");
  return run;
}

po::options_description ShortOptions() {
  po::options_description shorts("Short forms");
  for (const auto& [name, target] : ShortNames())
    shorts.add_options()(name.c_str(), po::value<std::string>(), ("same as --" + target).c_str());
  return shorts;
}

po::options_description ParameterOptions() {
  po::options_description params("Parameters (MODEL.md; [data] and [model] in config files)");
  const TrialSpec defaults;
  for (const ParamInfo& p : ParamTable()) {
    std::string readers;
    for (const auto& r : p.readers) readers += (readers.empty() ? "" : ", ") + r;
    std::string help = p.help + " (default: " + p.get(defaults) +
                       (p.core ? "" : "; read by " + (readers.empty() ? "none" : readers)) + ")";
    params.add_options()(p.name.c_str(), po::value<std::string>(), help.c_str());
  }
  return params;
}

// Applies one key = value to the options; `where` is the file or "command line". Parameters
// set are noted in `set` with where, to check that the chosen families read them.
void Apply(SimOptions& out, const std::string& key, const std::string& value,
           const std::string& where, std::map<std::string, std::string>& set) {
  auto alias = ShortNames().find(key);
  const std::string name = alias != ShortNames().end() ? alias->second : key;
  auto integer = [&](long long min, long long max) {
    return ParseIntegerInRange(where, name, value, min, max);
  };
  if (name == "trials")
    out.trials = static_cast<int>(integer(1, kMaxTrials));
  else if (name == "seed")
    out.seed = static_cast<uint64_t>(integer(0, INT64_MAX));
  else if (name == "threads")
    out.threads = static_cast<int>(integer(0, 4096));
  else if (name == "name")
    return;
  else {
    SetParam(out.spec, name, value, where);
    set[name] = where;
  }
}

// A parameter the cell's families do not read would change nothing: refused by name.
void CheckRead(const TrialSpec& spec, const std::map<std::string, std::string>& set) {
  for (const auto& [name, where] : set) {
    const ParamInfo* p = FindParam(name);
    if (p->ReadBy(spec)) continue;
    std::string readers;
    for (const auto& r : p->readers) readers += (readers.empty() ? "" : ", ") + r;
    const bool data = name.rfind("data.", 0) == 0;
    throw ConfigError(where + ": " + name + " is not read by " +
                      (data ? "data model " + spec.data.model : "model " + spec.model.kind) +
                      " (it is read by " + (readers.empty() ? "no family" : readers) +
                      "): remove it, or choose a family that reads it");
  }
}

void ReadConfig(const std::string& path, SimOptions& out, std::map<std::string, std::string>& set) {
  const IniFile ini = ReadIniFile(path);
  bool has_grid = false;
  for (const IniEntry& entry : ini.entries) {
    if (entry.key.rfind("grid.", 0) == 0) {
      has_grid = true;
      continue;
    }
    const bool known = FindParam(entry.key) || ShortNames().count(entry.key) ||
                       entry.key == "trials" || entry.key == "seed" || entry.key == "name";
    if (!known)
      throw ConfigError(path + ": unknown key \"" + entry.key +
                        "\" (expected a [data] or "
                        "[model] parameter of pmoe-sim --help, N, seed, trials or a [grid] "
                        "section)");
    Apply(out, entry.key, entry.value, path, set);
  }
  if (has_grid)
    std::cerr << "pmoe-sim: " << path << ": [grid] ignored (pmoe-sim runs one cell; "
              << "pmoe-sweep runs grids)\n";
}

}  // namespace

std::optional<SimOptions> ParseSimOptions(int argc, const char* const argv[]) {
  po::options_description all(
      "pmoe-sim: runs T trials of one cell and summarizes them.\n"
      "Usage: pmoe-sim [options]");
  all.add(RunOptions()).add(ShortOptions()).add(ParameterOptions());
  po::variables_map cli;
  try {
    const auto style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(argc, argv).options(all).style(style).run(), cli);
  } catch (const po::error& e) {
    throw ConfigError("command line: " + ProgramOptionsMessage(e) +
                      " (pmoe-sim --help lists options)");
  }
  if (cli.count("help")) {
    std::cout << all << "\n";
    return std::nullopt;
  }

  SimOptions out;
  std::string where = "command line";
  std::map<std::string, std::string> set;
  if (cli.count("config")) {
    where = cli["config"].as<std::string>();
    ReadConfig(where, out, set);
  }
  for (const auto& [name, target] : ShortNames())
    if (cli.count(name) && cli.count(target))
      throw ConfigError("command line: --" + name + " and --" + target + " set the same parameter");
  for (const auto& [key, value] : cli) {
    if (key == "config" || key == "help" || key == "json" || key == "no-early-stop") continue;
    Apply(out, key, value.as<std::string>(), "command line", set);
  }
  out.json = cli.count("json") > 0;
  if (cli.count("no-early-stop")) out.spec.model.early_stop = false;

  CheckRead(out.spec, set);
  ValidateSpec(out.spec, where);
  DataFamilyOf(out.spec).Make(out.spec, /*data_seed=*/0);  // InfeasibleError names the inequality
  return out;
}

}  // namespace pmoe
