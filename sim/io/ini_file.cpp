// INI reading through Boost.Program_options' config-file parser, every key accepted as text so
// that the caller decides what is known (and names what is not).
#include "pmoe/io/ini_file.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"

namespace po = boost::program_options;

namespace pmoe {
namespace {

constexpr size_t kMaxConfigBytes = 16 << 20;  // a config is a page of text; more is not one
constexpr const char kByteOrderMark[] = "\xef\xbb\xbf";

// Control characters other than tab and line ends are refused by line: Boost's parser would
// cut a value at a NUL and keep going, so "N = 100\0junk" read as N = 100.
void RequirePlainText(const std::string& path, const std::string& text) {
  int line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || (c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++line;
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", u);
      throw ConfigError(path + ": line " + std::to_string(line) + ": control character " + code +
                        " (expected plain text: key = value lines, [section] headers, # comments)");
    }
  }
}

// Boost.Program_options formats a message by replacing each %placeholder% with its value in a
// loop that never ends when the value contains the placeholder itself: a config line
// "%invalid_line%" or an option --%canonical_option% hung the tools (found by the fuzzer).
// The values lose their '%' before the message is formatted.
struct OptionErrorAccess : po::error_with_option_name {
  static void StripPercent(po::error_with_option_name& e) {
    auto strip = [](std::string& s) { s.erase(std::remove(s.begin(), s.end(), '%'), s.end()); };
    for (auto& [name, value] : e.*(&OptionErrorAccess::m_substitutions)) strip(value);
    for (auto& [name, value] : e.*(&OptionErrorAccess::m_substitution_defaults)) {
      strip(value.first);
      strip(value.second);
    }
  }
};

}  // namespace

std::string WithLfLineEnds(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;  // CRLF: one line end
    }
  }
  return out;
}

std::string ProgramOptionsMessage(const po::error& e) {
  if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&e)) {
    po::error_with_option_name copy = *named;
    OptionErrorAccess::StripPercent(copy);
    return copy.what();
  }
  return e.what();
}

IniFile ParseIniText(const std::string& path, const std::string& text_in) {
  // A UTF-8 byte-order mark (some Windows editors write one) is not part of the first key.
  const std::string text = text_in.rfind(kByteOrderMark, 0) == 0 ? text_in.substr(3) : text_in;
  if (text.size() > kMaxConfigBytes)
    throw ConfigError(path + ": " + std::to_string(text.size()) +
                      " bytes (expected a config of "
                      "at most " +
                      std::to_string(kMaxConfigBytes) + " bytes)");
  RequirePlainText(path, text);
  IniFile ini;
  ini.path = path;
  ini.text = text;
  // CRLF (Windows) and CR (old Mac) line ends read as LF: Boost's parser splits at LF only, so a
  // CR-only file was one long comment line and the default sweep ran (issue 28).
  std::istringstream stream(WithLfLineEnds(text));
  po::parsed_options parsed(nullptr);
  try {
    parsed = po::parse_config_file(stream, po::options_description(),
                                   /*allow_unregistered=*/true);
  } catch (const po::error& e) {
    throw ConfigError(path + ": " + ProgramOptionsMessage(e) +
                      " (expected key = value lines and [section] headers)");
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
  if (const std::string problem = InputFileProblem(path); !problem.empty())
    throw ConfigError(path + ": " + problem + " (expected a sweep config file)");
  if (FileSize(path) > static_cast<int64_t>(kMaxConfigBytes))
    throw ConfigError(path + ": " + std::to_string(FileSize(path)) +
                      " bytes (expected a config "
                      "of at most " +
                      std::to_string(kMaxConfigBytes) + " bytes)");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ConfigError(path + ": cannot read the config file");
  std::stringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) throw ConfigError(path + ": cannot read the config file");
  return ParseIniText(path, buffer.str());
}

}  // namespace pmoe
