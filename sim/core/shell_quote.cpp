#include "pmoe/core/shell_quote.hpp"

#include <cstdio>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

bool IsControl(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// Characters no POSIX shell, and not sbatch's #SBATCH parser, gives a meaning to.
bool IsPlain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string("_-./,:=+@%").find(c) != std::string::npos;
}

}  // namespace

std::string UnquotableProblem(const std::string& word, const std::string& what) {
  for (size_t i = 0; i < word.size(); ++i)
    if (IsControl(word[i])) {
      const char* name = word[i] == '\n'   ? "a newline"
                         : word[i] == '\r' ? "a carriage return"
                                           : "a control character";
      return what + " \"" + CommentText(word) + "\" holds " + name + " (at character " +
             std::to_string(i + 1) +
             "), which cannot be written safely into a script or a command line: rename it";
    }
  return "";
}

std::string ShellQuote(const std::string& word, const std::string& what) {
  if (const std::string problem = UnquotableProblem(word, what); !problem.empty())
    throw ConfigError(problem);
  bool plain = !word.empty();
  for (char c : word) plain = plain && IsPlain(c);
  if (plain) return word;
  std::string s = "'";
  for (char c : word) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return s + "'";
}

std::string ShellCommand(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + ShellQuote(w, "\"" + w + "\"");
  return s;
}

std::string HintCommand(const std::vector<std::string>& words) {
  for (const std::string& w : words)
    if (const std::string problem = UnquotableProblem(w, "an argument"); !problem.empty())
      return "(no command to paste: " + problem + ")";
  return ShellCommand(words);
}

std::string CommentText(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '\n')
      s += "\\n";
    else if (c == '\r')
      s += "\\r";
    else if (IsControl(c)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      s += buf;
    } else
      s += c;
  }
  return s;
}

}  // namespace pmoe
