// Option tables parsed with Boost.Program_options. The layer first rewrites every option to
// "--canonical=value" (aliases resolved, the value taken from the next argument when not
// attached, even when it starts with '-'), so that Boost sees one spelling and never mistakes
// a negative number for an option; Boost then checks flags and values and lays out the help.
#include "pmoe/cli/command.hpp"

#include <boost/program_options.hpp>
#include <cctype>
#include <cstdint>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/numerics_history.hpp"
#include "pmoe/core/suggest.hpp"
#include "pmoe/io/ini_file.hpp"

namespace po = boost::program_options;

namespace pmoe::cli {
namespace {

const Option kHelpOption{"help", "", "print this help and exit", {"h"}, ""};

std::string OptionSynopsis(const Option& o) {
  return "--" + o.name + (o.value.empty() ? "" : " " + o.value);
}

// Boost's table of the command's options, grouped by section, plus --help.
po::options_description Describe(const Command& command, unsigned width = 80) {
  po::options_description all(width, width / 2);  // Boost's own 80/40
  std::vector<std::pair<std::string, po::options_description>> groups;
  auto group = [&](const std::string& name) -> po::options_description& {
    for (auto& g : groups)
      if (g.first == name) return g.second;
    groups.emplace_back(name,
                        po::options_description(name.empty() ? "Options" : name, width, width / 2));
    return groups.back().second;
  };
  for (const Option& o : command.options) {
    std::string help = o.help;
    if (!o.aliases.empty()) {
      help += " (also";
      for (const std::string& a : o.aliases) help += (a.size() == 1 ? " -" : " --") + a;
      help += ")";
    }
    if (o.value.empty())
      group(o.section).add_options()(o.name.c_str(), help.c_str());
    else
      group(o.section).add_options()(
          o.name.c_str(), po::value<std::vector<std::string>>()->value_name(o.value), help.c_str());
  }
  group("").add_options()("help", kHelpOption.help.c_str());
  for (auto& g : groups) all.add(g.second);
  return all;
}

std::vector<std::string> AllNames(const Command& command) {
  std::vector<std::string> names = {"help"};
  for (const Option& o : command.options) {
    names.push_back(o.name);
    for (const std::string& a : o.aliases) names.push_back(a);
  }
  return names;
}

[[noreturn]] void UnknownOption(const Command& command, const std::string& given,
                                const std::vector<Command>& siblings) {
  std::string message =
      "command line: unrecognised option " + given + " of " + command.Invocation();
  std::string name = given.substr(given.find_first_not_of('-'));
  name = name.substr(0, name.find('='));
  std::vector<std::string> others;
  for (const Command& c : siblings)
    if (c.name != command.name && c.Find(name) != nullptr) others.push_back(c.name);
  std::string near = NearestName(name, AllNames(command));
  // A parameter renamed by a numerics version: its new name, whatever the spelling distance.
  const std::string renamed = CurrentParamName(name);
  if (renamed != name && command.Find(renamed) != nullptr) near = renamed;
  if (!others.empty()) {
    std::string list;
    for (size_t i = 0; i < others.size(); ++i)
      list += (i == 0 ? "" : i + 1 == others.size() ? " and " : ", ") + others[i];
    message += " (it is one of the options of the " + list +
               (others.size() == 1 ? " command" : " commands") + ", not of " + command.name + ")";
  } else if (!near.empty()) {
    const Option* o = command.Find(near);
    message += " (did you mean --" + (o ? o->name : near) + "?)";
  }
  throw ConfigError(message + "; " + command.Invocation() + " --help lists its options");
}

}  // namespace

std::string Command::Invocation() const { return tool + (name.empty() ? "" : " " + name); }

std::string Command::Usage() const {
  std::string usage = Invocation() + (operands.empty() ? "" : " " + operands);
  for (const Option& o : options)
    if (o.section.empty()) usage += " [" + OptionSynopsis(o) + "]";
  return usage;
}

const Option* Command::Find(const std::string& wanted) const {
  for (const Option& o : options) {
    if (o.name == wanted) return &o;
    for (const std::string& a : o.aliases)
      if (a == wanted) return &o;
  }
  return nullptr;
}

bool Parsed::Has(const std::string& name) const {
  for (const auto& o : options)
    if (o.first == name) return true;
  return false;
}

std::optional<std::string> Parsed::Get(const std::string& name) const {
  std::optional<std::string> value;
  for (const auto& o : options)
    if (o.first == name) value = o.second;
  return value;
}

std::vector<std::string> Parsed::All(const std::string& name) const {
  std::vector<std::string> values;
  for (const auto& o : options)
    if (o.first == name) values.push_back(o.second);
  return values;
}

Parsed Parse(const Command& command, const std::vector<std::string>& args,
             const std::vector<Command>& siblings) {
  Parsed parsed;
  std::vector<std::string> canonical;     // what Boost parses
  std::vector<std::string> after_dashes;  // operands after "--", whatever they look like
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool long_option = arg.size() > 2 && arg.compare(0, 2, "--") == 0;
    const bool short_option =
        arg.size() == 2 && arg[0] == '-' && std::isalpha(static_cast<unsigned char>(arg[1]));
    if (arg == "--") {
      after_dashes.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    }
    if (!(long_option || short_option)) {
      canonical.push_back(arg);  // "x.ini", "-", "-3": operands
      continue;
    }
    const size_t start = long_option ? 2 : 1;
    const size_t eq = long_option ? arg.find('=') : std::string::npos;
    const std::string name =
        arg.substr(start, eq == std::string::npos ? std::string::npos : eq - start);
    if (name == "help" || name == "h") {
      parsed.help = true;
      continue;
    }
    const Option* option = command.Find(name);
    if (option == nullptr) UnknownOption(command, arg, siblings);
    if (option->value.empty()) {
      canonical.push_back("--" + option->name + (eq == std::string::npos ? "" : arg.substr(eq)));
      continue;
    }
    std::string value;
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else {
      if (i + 1 >= args.size())
        throw ConfigError("command line: " + arg + " needs a value (" + OptionSynopsis(*option) +
                          "; " + command.Invocation() + " --help)");
      value = args[++i];
    }
    // Boost reads "--out=" as a missing argument; an empty value is a value of the wrong kind.
    if (value.empty())
      throw ConfigError(
          "command line", "--" + option->name,
          option->value == "F" ? "a file name" : "a value (" + OptionSynopsis(*option) + ")",
          value);
    canonical.push_back("--" + option->name + "=" + value);
  }
  if (parsed.help) return parsed;

  po::options_description table = Describe(command);
  table.add_options()("operand", po::value<std::vector<std::string>>());
  po::positional_options_description operands;
  operands.add("operand", -1);
  try {
    const auto style =
        po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent;
    const po::parsed_options result =
        po::command_line_parser(canonical).options(table).positional(operands).style(style).run();
    for (const po::option& o : result.options) {
      if (o.string_key == "operand") {
        parsed.operands.insert(parsed.operands.end(), o.value.begin(), o.value.end());
        continue;
      }
      parsed.options.emplace_back(o.string_key, o.value.empty() ? "" : o.value[0]);
    }
  } catch (const po::error& e) {
    throw ConfigError("command line: " + ProgramOptionsMessage(e) + " (" + command.Invocation() +
                      " --help)");
  }
  parsed.operands.insert(parsed.operands.end(), after_dashes.begin(), after_dashes.end());
  if (parsed.operands.size() < command.min_operands ||
      (command.max_operands != SIZE_MAX && parsed.operands.size() > command.max_operands)) {
    std::string problem =
        parsed.operands.size() < command.min_operands
            ? "missing " + command.operands
            : "unexpected argument \"" + parsed.operands[command.max_operands] + "\"";
    throw ConfigError("command line: " + problem + " (usage: " + command.Usage() + ")");
  }
  return parsed;
}

std::string Help(const Command& command) {
  std::ostringstream out;
  out << "usage: " << command.Invocation()
      << (command.operands.empty() ? "" : " " + command.operands) << " [options]\n\n"
      << command.summary << "\n";
  if (!command.description.empty()) out << "\n" << command.description << "\n";
  out << "\n" << Describe(command);
  return out.str();
}

std::string MarkdownCell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string Markdown(const Command& command) {
  std::ostringstream out;
  out << "### `" << command.Invocation() << "`\n\n"
      << "```\n"
      << command.Invocation() << (command.operands.empty() ? "" : " " + command.operands)
      << " [options]\n```\n\n"
      << command.summary << "\n\n";
  if (!command.description.empty()) out << command.description << "\n\n";
  std::string section = "\x01";
  for (const Option& o : command.options) {
    if (o.section != section) {
      section = o.section;
      if (!section.empty()) out << "\n" << section << ":\n\n";
      out << "| Option | Meaning |\n|---|---|\n";
    }
    std::string names = "`" + OptionSynopsis(o) + "`";
    for (const std::string& a : o.aliases)
      names += ", `" + std::string(a.size() == 1 ? "-" : "--") + a + "`";
    out << "| " << MarkdownCell(names) << " | " << MarkdownCell(o.help) << " |\n";
  }
  if (command.options.empty()) out << "No options but `--help`.\n";
  out << "\n";
  return out.str();
}

}  // namespace pmoe::cli
