// INI reading through Boost.Program_options' config-file parser, every key accepted as text so
// that the caller decides what is known (and names what is not).
#include "pmoe/io/ini_file.hpp"

#include <boost/program_options.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "pmoe/core/errors.hpp"

namespace po = boost::program_options;

namespace pmoe {

IniFile ParseIniText(const std::string& path, const std::string& text) {
  IniFile ini;
  ini.path = path;
  ini.text = text;
  std::istringstream stream(text);
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::parse_config_file(stream, po::options_description(),
                                   /*allow_unregistered=*/true);
  } catch (const po::error& e) {
    throw ConfigError(path + ": " + e.what() + " (expected key = value lines and [section] "
                      "headers)");
  }
  std::set<std::string> seen;
  for (const auto& option : parsed.options) {
    if (!seen.insert(option.string_key).second)
      throw ConfigError(path + ": " + option.string_key + " is set twice");
    if (option.value.size() != 1 || option.value[0].empty())
      throw ConfigError(path + ": " + option.string_key + " has no value");
    ini.entries.push_back({option.string_key, option.value[0]});
  }
  return ini;
}

IniFile ReadIniFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw ConfigError(path + ": cannot read the config file");
  std::stringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) throw ConfigError(path + ": cannot read the config file");
  return ParseIniText(path, buffer.str());
}

}  // namespace pmoe
