// Option parsing of pmoe-sim with the shared command-line layer (cli/, Boost.Program_options).
// All values are read as text and handed to the parameter table, so the command line and config
// files share one parser and one set of error messages. Precedence: command line, then --config
// file, then defaults. On the command line a parameter is spelt in kebab-case
// (--data.delta-r, --n-test); its table name (--data.delta_r, --N_test) is kept as an alias.
#include "sim_options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <vector>

#include "pmoe/cli/file_check.hpp"
#include "pmoe/cli/tool.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/suggest.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/ini_file.hpp"

namespace pmoe {
namespace {

const std::map<std::string, std::string>& ShortNames() {
  static const std::map<std::string, std::string> names = {
      {"data", "data.model"}, {"model", "model.kind"},    {"n", "data.n"},
      {"d", "data.d"},        {"l", "model.l"},           {"k", "model.k"},
      {"m", "model.m"},       {"epochs", "model.epochs"}, {"idx-dir", "data.idx_dir"}};
  return names;
}

// The command-line spelling of a parameter: '_' as '-', lower case unless that would make it
// another option's (N stays N: n is data.n's short form).
std::string OptionName(const std::string& param) {
  std::string kebab = param, lower;
  for (char& c : kebab)
    if (c == '_') c = '-';
  for (char c : kebab) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == kebab) return kebab;
  const bool taken = ShortNames().count(lower) > 0 || FindParam(lower) != nullptr;
  return taken ? kebab : lower;
}

// Option name -> parameter (or run option) name it sets.
const std::map<std::string, std::string>& OptionTargets() {
  static const std::map<std::string, std::string> targets = [] {
    std::map<std::string, std::string> t = ShortNames();
    for (const ParamInfo& p : ParamTable()) t[OptionName(p.name)] = p.name;
    return t;
  }();
  return targets;
}

std::string Readers(const ParamInfo& p) {
  std::string readers;
  for (const auto& r : p.readers) readers += (readers.empty() ? "" : ", ") + r;
  return readers;
}

std::string TypeText(const ParamInfo& p) {
  switch (p.type) {
    case ParamType::kInt:
      return "integer";
    case ParamType::kDouble:
      return "number";
    case ParamType::kBool:
      return "true|false";
    case ParamType::kChoice: {
      std::string c;
      for (const auto& x : p.choices) c += (c.empty() ? "" : "|") + x;
      return c;
    }
    case ParamType::kString:
      return "text";
  }
  return "";
}

std::string Placeholder(const ParamInfo& p) {
  switch (p.type) {
    case ParamType::kInt:
      return "INT";
    case ParamType::kDouble:
      return "X";
    case ParamType::kBool:
      return "BOOL";
    case ParamType::kChoice:
      return "NAME";
    case ParamType::kString:
      return "TEXT";
  }
  return "V";
}

cli::Command BuildSimCommand() {
  cli::Command c;
  c.tool = "pmoe-sim";
  c.summary = "Runs T trials of one cell on all cores and summarizes them (or prints --json).";
  c.description =
      "Parameters are MODEL.md's; in a --config file they are the [data] and [model] keys of "
      "the sweep format, and the command line overrides them. A parameter the cell's families "
      "do not read is refused. " +
      cli::ExitStatusText();
  c.options = {
      {"config",
       "FILE",
       "read [data] and [model] (and N, seed, trials) from this sweep-format "
       "INI file; the command line overrides it",
       {},
       "Run"},
      {"trials", "T", "trials to run (default: 20)", {}, "Run"},
      {"seed", "S", "master seed (default: 1)", {}, "Run"},
      {"threads", "N", "worker threads (default: 0 = all cores)", {}, "Run"},
      {"json", "", "print every trial and the summary as JSON", {}, "Run"},
      {"no-early-stop",
       "",
       "train for exactly model.epochs epochs (same as --model.early-stop "
       "false)",
       {"no_early_stop"},
       "Run"},
      {"name", "NAME", "accepted for sweep configs; unused", {}, "Run"},
      {"version", "", "print the tool version, numerics version and build, and exit", {}, "Run"},
      {"list-params",
       "",
       "print the parameter table (name, type, default, range, readers) and "
       "exit; --markdown for docs/reference/parameters.md",
       {"list_params"},
       "Run"},
      {"markdown", "", "with --list-params: Markdown", {}, "Run"},
      {"reference",
       "TOPIC",
       "print the Markdown reference: markdown (the options) or params",
       {},
       "Run"},
  };
  for (const auto& [name, target] : ShortNames())
    c.options.push_back({name, "V", "same as --" + OptionName(target), {}, "Short forms"});
  const TrialSpec defaults;
  for (const ParamInfo& p : ParamTable()) {
    const std::string readers = Readers(p);
    std::string help = p.help + " (default: " + p.get(defaults) +
                       (p.core ? "" : "; read by " + (readers.empty() ? "none" : readers)) + ")";
    std::vector<std::string> aliases;
    if (OptionName(p.name) != p.name) aliases.push_back(p.name);
    c.options.push_back({OptionName(p.name), Placeholder(p), help, aliases,
                         "Parameters (MODEL.md; [data] and [model] in config files)"});
  }
  return c;
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
    const std::string readers = Readers(*p);
    const bool data = name.rfind("data.", 0) == 0;
    throw ConfigError(where + ": " + name + " is not read by " +
                      (data ? "data model " + spec.data.model : "model " + spec.model.kind) +
                      " (it is read by " + (readers.empty() ? "no family" : readers) +
                      "): remove it, or choose a family that reads it");
  }
}

void ReadConfig(const std::string& path, SimOptions& out, std::map<std::string, std::string>& set) {
  cli::RequireConfigFile(path);
  const IniFile ini = ReadIniFile(path);
  bool has_grid = false;
  for (const IniEntry& entry : ini.entries) {
    if (entry.key.rfind("grid.", 0) == 0) {
      has_grid = true;
      continue;
    }
    const bool known = FindParam(entry.key) || ShortNames().count(entry.key) ||
                       entry.key == "trials" || entry.key == "seed" || entry.key == "name";
    if (!known) {
      throw ConfigError(
          path + ": unknown key \"" + entry.key + "\"" +
          DidYouMeanConfigKey(entry.key, {"data", "model", "grid"}, {"trials", "seed", "name"}) +
          " (expected a [data] or "
          "[model] parameter of pmoe-sim --list-params, N, seed, trials or a [grid] "
          "section)");
    }
    Apply(out, entry.key, entry.value, path, set);
  }
  if (has_grid)
    std::cerr << "pmoe-sim: " << path << ": [grid] ignored (pmoe-sim runs one cell; "
              << "pmoe-sweep runs grids)\n";
}

std::string ParamRange(const ParamInfo& p) {
  if (p.type == ParamType::kInt) return std::to_string(p.min) + ".." + std::to_string(p.max);
  if (p.type == ParamType::kDouble) return "finite (see the meaning)";
  return "";
}

}  // namespace

const cli::Command& SimCommand() {
  static const cli::Command command = BuildSimCommand();
  return command;
}

namespace {

// The table's rows whose name starts with `prefix` that `family` reads (declared by it, or by
// the table or another family and named in its reads()), in table order.
std::string RowsReadBy(const std::string& family, const std::string& prefix) {
  std::string out;
  for (const ParamInfo& p : ParamTable())
    if (!p.core && p.name.rfind(prefix, 0) == 0 &&
        std::find(p.readers.begin(), p.readers.end(), family) != p.readers.end())
      out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

}  // namespace

std::string ParamReference(bool markdown) {
  const TrialSpec defaults;
  std::string out;
  if (markdown)
    out +=
        "# Parameters (config keys and `pmoe-sim` options)\n\n"
        "<!-- Generated by `pmoe-sim --list-params --markdown`; do not edit "
        "(tests/tool/reference_test.cmake compares). -->\n\n"
        "Every parameter of a cell. In a config file the part after the dot is the key of "
        "its `[data]` or `[model]` section (`[data] delta_r = 0.1`), and `N`, `N_test`, "
        "`success` are top-level keys; on the `pmoe-sim` command line it is the option in "
        "the second column (the table name is accepted too). A `[grid]` axis names the "
        "parameter in full (`model.l = 1:8`). Core parameters are read by every cell; any "
        "other only by the families listed, and setting it for a cell whose families do "
        "not read it is an error. Ranges of numbers beyond their type are checked per "
        "cell (the meaning says which).\n\n"
        "| Parameter | Option | Type | Default | Range | Unit | Read by | Label | Symbol | Meaning "
        "|\n"
        "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const ParamInfo& p : ParamTable()) {
    const std::string readers = p.core ? "every cell" : Readers(p);
    if (markdown)
      out += "| `" + p.name + "` | `--" + OptionName(p.name) + "` | " +
             cli::MarkdownCell(TypeText(p)) + " | `" + p.get(defaults) + "` | " + ParamRange(p) +
             " | " + cli::MarkdownCell(p.unit) + " | " + (readers.empty() ? "none" : readers) +
             " | " + cli::MarkdownCell(p.label) + " | " +
             (p.symbol.empty() ? "" : "`" + cli::MarkdownCell(p.symbol) + "`") + " | " +
             cli::MarkdownCell(p.help + (p.rule.empty() ? ""
                                                        : "; the rule's value per cell is "
                                                          "recorded in the result file's "
                                                          "/resolved")) +
             " |\n";
    else
      out += p.name + "  (--" + OptionName(p.name) + ", " + TypeText(p) + ", default " +
             p.get(defaults) + (ParamRange(p).empty() ? "" : ", " + ParamRange(p)) +
             (p.unit.empty() ? "" : ", in " + p.unit) + "; read by " +
             (readers.empty() ? "none" : readers) + ")\n    " + p.help + "\n";
  }
  if (markdown) {
    out +=
        "\nFamilies (the values of `data.model` and `model.kind`):\n\n"
        "| Family | Label | Reads | What it is |\n|---|---|---|---|\n";
    for (const DataFamily* f : DataFamilies()) {
      const std::string reads = RowsReadBy(f->name(), "data.");
      out += "| `data.model = " + f->name() + "` | " + cli::MarkdownCell(f->label()) + " | " +
             cli::MarkdownCell(reads) + " | " + cli::MarkdownCell(f->help()) + " |\n";
    }
    for (const ModelFamily* f : ModelFamilies()) {
      const std::string reads = RowsReadBy(f->name(), "model.");
      out += "| `model.kind = " + f->name() + "` | " + cli::MarkdownCell(f->label()) + " | " +
             cli::MarkdownCell(reads) + " | " + cli::MarkdownCell(f->help()) + " |\n";
    }
  }
  return out;
}

std::optional<SimOptions> ParseSimOptions(int argc, const char* const argv[]) {
  const cli::Command& command = SimCommand();
  const cli::Parsed parsed = cli::Parse(command, std::vector<std::string>(argv + 1, argv + argc));
  if (parsed.help) {
    std::cout << cli::Help(command) << "\n";
    return std::nullopt;
  }
  if (parsed.Has("version")) {
    std::cout << cli::VersionText("pmoe-sim");
    return std::nullopt;
  }
  if (parsed.Has("list-params")) {
    std::cout << ParamReference(parsed.Has("markdown"));
    return std::nullopt;
  }
  if (const auto topic = parsed.Get("reference")) {
    if (*topic == "markdown")
      std::cout << SimReferenceMarkdown();
    else if (*topic == "params")
      std::cout << ParamReference(true);
    else
      throw ConfigError("command line", "--reference", "markdown or params", *topic);
    return std::nullopt;
  }
  if (parsed.Has("markdown")) throw ConfigError("command line: --markdown goes with --list-params");
  if (!parsed.operands.empty())
    throw ConfigError("command line: unexpected argument \"" + parsed.operands[0] +
                      "\" (pmoe-sim takes options only; pmoe-sim --help)");

  SimOptions out;
  std::string where = "command line";
  std::map<std::string, std::string> set;
  if (const auto config = parsed.Get("config")) {
    where = *config;
    ReadConfig(where, out, set);
  }
  std::map<std::string, std::string> given;  // parameter -> the option that set it
  for (const auto& [option, value] : parsed.options) {
    const auto target = OptionTargets().find(option);
    if (target == OptionTargets().end()) continue;  // a run option, handled below
    const auto [it, fresh] = given.emplace(target->second, option);
    if (!fresh && it->second != option)
      throw ConfigError("command line: --" + it->second + " and --" + option +
                        " set the same parameter");
  }
  for (const std::string run_option : {"trials", "seed", "threads", "name"})
    for (const std::string& value : parsed.All(run_option))
      Apply(out, run_option, value, "command line", set);
  for (const auto& [option, value] : parsed.options) {
    const auto target = OptionTargets().find(option);
    if (target != OptionTargets().end()) Apply(out, target->second, value, "command line", set);
  }
  out.json = parsed.Has("json");
  if (parsed.Has("no-early-stop")) SetParam(out.spec, "model.early_stop", "false");

  CheckRead(out.spec, set);
  ValidateSpec(out.spec, where);
  DataFamilyOf(out.spec).Make(out.spec, /*data_seed=*/0);  // InfeasibleError names the inequality
  return out;
}

std::string SimReferenceMarkdown() {
  const cli::Command& command = SimCommand();
  return "# `pmoe-sim` command reference\n\n"
         "<!-- Generated by `pmoe-sim --reference markdown`; do not edit "
         "(tests/tool/reference_test.cmake compares). -->\n\n" +
         cli::Markdown(command) +
         "The parameters' types, defaults, ranges and readers: [parameters.md](parameters.md).\n";
}

}  // namespace pmoe
