// The pmoe-sweep commands. Each returns the exit status and throws ConfigError (exit 2) on bad
// input; `args` are the command's own arguments.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

// The value after option args[*i], advancing *i; throws ConfigError when it is missing.
const std::string& OptionValue(const std::vector<std::string>& args, size_t* i);

// The number in `text` for option `key`, within [least, most] (least itself excluded unless
// least_allowed); otherwise a ConfigError that says what was expected.
double ParseNumber(const std::string& key, const std::string& text, double least,
                   bool least_allowed, double most, const char* expected);
double ParsePositive(const std::string& key, const std::string& text);
// --out's value, refused when empty (it would silently mean the default).
const std::string& RequireOutPath(const std::string& text);
inline constexpr long long kMaxThreads = 4096;  // --threads: an integer in 1..kMaxThreads

// Throws ConfigError for an argument a command does not take, with its usage line.
[[noreturn]] void UnexpectedArgument(const std::string& argument, const std::string& usage);

int RunPlanCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunRunCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunMergeCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunStatusCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunMissingCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunSlurmCommand(const std::vector<std::string>& args, const std::string& command_line);
int RunWatchCommand(const std::vector<std::string>& args, const std::string& command_line);

}  // namespace pmoe
