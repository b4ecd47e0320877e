// The pmoe-sweep commands. Each has an option table (XCommand(), shown by `pmoe-sweep X --help`
// and the reference) and a Run function that takes the parsed command line, computes and
// renders; bad input throws ConfigError (exit 2), the statuses are cli::ExitStatus.
#pragma once

#include <string>
#include <vector>

#include "pmoe/cli/command.hpp"

namespace pmoe {

// The number in `text` for option `key`, within [least, most] (least itself excluded unless
// least_allowed); otherwise a ConfigError that says what was expected.
double ParseNumber(const std::string& key, const std::string& text, double least,
                   bool least_allowed, double most, const char* expected);
double ParsePositive(const std::string& key, const std::string& text);
// --out's value, refused when empty (it would silently mean the default).
const std::string& RequireOutPath(const std::string& text);
inline constexpr long long kMaxThreads = 4096;  // --threads: an integer in 1..kMaxThreads

cli::Command PlanCommand();
cli::Command RunCommand();
cli::Command MergeCommand();
cli::Command StatusCommand();
cli::Command MissingCommand();
cli::Command SlurmCommand();
cli::Command WatchCommand();

// The options that name a sharded sweep's files (missing, watch): --shards K and --out F.
std::vector<cli::Option> ShardSetOptions();
// --shards K of such a command; throws ConfigError with the command's usage when it is absent.
int RequiredShards(const cli::Parsed& args, const cli::Command& command);

int RunPlanCommand(const cli::Parsed& args, const std::string& command_line);
int RunRunCommand(const cli::Parsed& args, const std::string& command_line);
int RunMergeCommand(const cli::Parsed& args, const std::string& command_line);
int RunStatusCommand(const cli::Parsed& args, const std::string& command_line);
int RunMissingCommand(const cli::Parsed& args, const std::string& command_line);
int RunSlurmCommand(const cli::Parsed& args, const std::string& command_line);
int RunWatchCommand(const cli::Parsed& args, const std::string& command_line);

}  // namespace pmoe
