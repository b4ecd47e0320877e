// The command-line layer of pmoe-sim, pmoe-sweep and pmoe-analyze: one option table per command,
// parsed with Boost.Program_options after the spellings are made canonical. The same table
// gives `TOOL COMMAND --help`, the generated reference (docs/reference/) and the "did you mean"
// of an unknown option, so none of them can drift from what the parser accepts.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pmoe::cli {

struct Option {
  std::string name;                  // kebab-case, without "--": "checkpoint-seconds"
  std::string value;                 // the value's placeholder ("S", "F"); "" for a flag
  std::string help;                  // what it does; the default and range in words
  std::vector<std::string> aliases;  // other accepted spellings, without "--" (older ones)
  std::string section;               // help group; "" for the command's own options
};

struct Parsed;  // below

struct Command {
  std::string tool;         // "pmoe-sweep"
  std::string name;         // "run"; "" for a tool without commands (pmoe-sim)
  std::string operands;     // "CONFIG.ini", "OUT.h5 SHARD.h5...", "" for none
  std::string summary;      // one line
  std::string description;  // what it does, exit status included; may span lines
  std::vector<Option> options;
  size_t min_operands = 0, max_operands = 0;  // max 0 with min 0: none; SIZE_MAX: any number
  // What runs it (Dispatch without a `run` of its own): the parsed arguments and the whole
  // command line as typed (for the files it writes). Empty for tools that dispatch by name.
  std::function<int(const Parsed&, const std::string& command_line)> run;

  std::string Invocation() const;  // "pmoe-sweep run"
  std::string Usage() const;       // "pmoe-sweep run CONFIG.ini [--out F] [--force] ..."
  const Option* Find(const std::string& name) const;  // by name or alias
};

// A command line parsed against a table: options by canonical name in the order given.
struct Parsed {
  std::vector<std::pair<std::string, std::string>> options;  // (name, value; "" for a flag)
  std::vector<std::string> operands;
  bool help = false;

  bool Has(const std::string& name) const;
  std::optional<std::string> Get(const std::string& name) const;  // the last value given
  std::vector<std::string> All(const std::string& name) const;    // every value, in order
};

// Parses `args` (what follows the command name) against `command`'s options plus --help/-h.
// Accepts --name=value and --name value (a value may start with '-': --from -3), and every
// alias. Throws ConfigError (exit 2) naming the option and, for an unknown one, the nearest
// known name ("did you mean --out?"), or the other commands that take it (`siblings`), and
// where the options are listed.
Parsed Parse(const Command& command, const std::vector<std::string>& args,
             const std::vector<Command>& siblings = {});

// `TOOL COMMAND --help`: usage, description, options (Boost.Program_options' layout).
std::string Help(const Command& command);

// The command as a Markdown section of the reference: usage, description, an option table.
std::string Markdown(const Command& command);

// Escapes '|' and line breaks for a Markdown table cell.
std::string MarkdownCell(const std::string& text);

}  // namespace pmoe::cli
