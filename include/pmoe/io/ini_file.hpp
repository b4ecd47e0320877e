// Reads the INI format of sweep configs (DESIGN.md) with Boost.Program_options: `key = value`
// lines, `[section]` headers that prefix keys ("[data] n = 16" is "data.n"), `#` comments.
#pragma once

#include <string>
#include <vector>

namespace boost::program_options {
class error;
}

namespace pmoe {

// The message of a Boost.Program_options error, safe to format whatever text it quotes (its own
// what() loops forever on a value holding a %placeholder%).
std::string ProgramOptionsMessage(const boost::program_options::error& e);

struct IniEntry {
  std::string key;    // dotted: section + "." + key, or the bare key before any section
  std::string value;  // trimmed text
};

struct IniFile {
  std::string path;
  std::string text;               // the whole file, as recorded with results
  std::vector<IniEntry> entries;  // in file order
};

// Throws ConfigError naming the file when it cannot be read, is malformed, or sets a key twice.
IniFile ReadIniFile(const std::string& path);

// The same from text already in memory; `path` only names it in messages. LF, CRLF and CR line
// ends read the same.
IniFile ParseIniText(const std::string& path, const std::string& text);

// `text` with every CRLF and lone CR made LF.
std::string WithLfLineEnds(const std::string& text);

}  // namespace pmoe
