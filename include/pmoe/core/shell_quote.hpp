// Quoting for the shell: every path or value a tool writes into a generated script (the Slurm
// scripts' commands, comments and #SBATCH lines) or prints as a command to copy and paste goes
// through these, so that a space, a quote, `$(...)` or a backquote in it stays part of one word
// and never runs (issue 28).
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// `word` as one shell word: unchanged when it holds only characters no shell treats specially
// (letters, digits, and _ - . / , : = + @ %), else in single quotes with each ' written '\''.
// Also one word to sbatch's own parser of #SBATCH lines, which honours the same quotes.
// Throws ConfigError naming `what` when the word holds a newline, a carriage return or another
// control character: a pasted or generated line would end there, so it cannot be quoted safely.
std::string ShellQuote(const std::string& word, const std::string& what = "a path");

// Each word quoted, joined by spaces: a command ready to paste.
std::string ShellCommand(const std::vector<std::string>& words);

// `text` fit for one comment line of a generated script: control characters (a newline would
// end the comment and make the rest a command) written as \n, \r, \xHH.
std::string CommentText(const std::string& text);

// A command for a hint inside a message: ShellCommand(words), or, when a word cannot be quoted
// (a newline), the words as CommentText with why no command can be given; never throws.
std::string HintCommand(const std::vector<std::string>& words);

// "" when `word` can be quoted (no control characters); else what is wrong, naming it.
std::string UnquotableProblem(const std::string& word, const std::string& what);

}  // namespace pmoe
