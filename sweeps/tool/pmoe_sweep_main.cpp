// pmoe-sweep: runs grids of cells into crash-safe HDF5 result files.
// Exit status: 0 done, 1 incomplete (status, missing), 2 bad command, config, file or infeasible
// cell, 3 a file could not be written, 4 a CPU lacking the build's instructions, 130 interrupted.
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pmoe/core/errors.hpp"

namespace {

constexpr const char* kUsage =
    "usage: pmoe-sweep COMMAND ...\n"
    "  run CONFIG.ini [--out F] [--threads N] [--shard I/K|auto/K] [--force]\n"
    "      [--checkpoint-seconds S] [--test-cache-mb M]\n"
    "         run a sweep, or resume it: trials already in F (default results/NAME.h5) are\n"
    "         skipped. --shard I/K runs the I-th of K cost-balanced parts into\n"
    "         F-without-.h5.shards/shard-I-of-K.h5; auto/K takes I from SLURM_ARRAY_TASK_ID\n"
    "         (K is never taken from the array's size). Trials with the same data parameters\n"
    "         and trial index share their test set: up to M megabytes of them are kept\n"
    "         (default 1000; 0: draw each anew)\n"
    "  plan CONFIG.ini [--out F] [--shard I/K] [--all] [--json] [--pilot T] [--threads N]\n"
    "         the cells, trials, estimated cost and memory, and what a run would skip;\n"
    "         --pilot T runs T of the trials still to run (on N cores; nothing is written)\n"
    "         and scales the estimate by what they took\n"
    "  slurm CONFIG.ini --shards K [--out F] [--cpus C] [--pilot T] [--margin X]\n"
    "      [--time MINUTES] [--mem MB] [--sbatch LINE]... [--sbatch-file F] [--print|--submit]\n"
    "         writes F-without-.h5.slurm/array.sbatch (K tasks, C CPUs each, time and memory\n"
    "         from a pilot of T trials (default 16) times X (default 2)) and merge.sbatch;\n"
    "         --print shows them instead, --submit submits both (merge after the array)\n"
    "  missing CONFIG.ini --shards K [--out F]\n"
    "         which shards are complete, incomplete, absent, running or of another sweep, and\n"
    "         the command that finishes them; exit 1 until all are complete\n"
    "  merge OUT.h5 SHARD.h5... [--force]\n"
    "         one file from the shards of one sweep, identical to a single-machine run's;\n"
    "         an existing OUT.h5 of another sweep is only overwritten with --force\n"
    "  watch CONFIG.ini --shards K [--out F] [--every S]\n"
    "         every shard's Slurm task state and trials held, at a glance\n"
    "  status FILE.h5...\n"
    "         what each result file (or its journal) holds and lacks; exit 1 if any lacks\n"
    "Exit status: 0 done, 1 incomplete (status, missing), 2 bad command, config or file,\n"
    "3 a file could not be written, 4 a CPU without the build's instruction set, 130 stopped.\n";

}  // namespace

namespace pmoe {

const std::string& OptionValue(const std::vector<std::string>& args, size_t* i) {
  if (*i + 1 >= args.size()) throw ConfigError("command line: " + args[*i] + " needs a value");
  return args[++*i];
}

double ParseNumber(const std::string& key, const std::string& text, double least,
                   bool least_allowed, double most, const char* expected) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  const bool above = least_allowed ? v >= least : v > least;
  // Finite, and not an underflow (1e-320 would read as a tiny positive number or as 0).
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || !above ||
      !(v <= most))
    throw ConfigError("command line", key, expected, text);
  return v;
}

const std::string& RequireOutPath(const std::string& text) {
  if (text.empty()) throw ConfigError("command line", "--out", "a file name", text);
  return text;
}

double ParsePositive(const std::string& key, const std::string& text) {
  return ParseNumber(key, text, 0, false, INFINITY, "a positive finite number");
}

void UnexpectedArgument(const std::string& argument, const std::string& usage) {
  throw ConfigError("command line: unexpected argument \"" + argument + "\" (usage: " + usage +
                    ")");
}

}  // namespace pmoe

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout) << kUsage;
    return args.empty() ? 2 : 0;
  }
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);
  const std::string command = args[0];
  args.erase(args.begin());
  for (const std::string& arg : args)
    if (arg == "--help" || arg == "-h") {  // `pmoe-sweep run --help` too
      std::cout << kUsage;
      return 0;
    }
  // A file-size limit (ulimit -f) then fails the write with EFBIG, which the store reports by
  // path, instead of killing the process without a word.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    if (command == "run") return pmoe::RunRunCommand(args, command_line);
    if (command == "plan") return pmoe::RunPlanCommand(args, command_line);
    if (command == "merge") return pmoe::RunMergeCommand(args, command_line);
    if (command == "status") return pmoe::RunStatusCommand(args, command_line);
    if (command == "missing") return pmoe::RunMissingCommand(args, command_line);
    if (command == "slurm") return pmoe::RunSlurmCommand(args, command_line);
    if (command == "watch") return pmoe::RunWatchCommand(args, command_line);
    std::cerr << "pmoe-sweep: error: unknown command \"" << command
              << "\" (expected run, plan, slurm, missing, merge or status)\n"
              << kUsage;
    return 2;
  } catch (const pmoe::ConfigError& e) {
    std::cerr << "pmoe-sweep: error: " << e.what() << "\n";
    return 2;
  } catch (const pmoe::SchemaError& e) {
    std::cerr << "pmoe-sweep: error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {  // the path and the system's reason
    std::cerr << "pmoe-sweep: error: " << e.path1().string() << ": " << e.code().message()
              << (e.path2().empty() ? "" : " (" + e.path2().string() + ")") << "\n";
    return 3;
  } catch (const pmoe::IoError& e) {  // a file the store writes: disk full, read-only, ...
    std::cerr << "pmoe-sweep: error: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "pmoe-sweep: error: " << e.what() << "\n";
    return 1;
  }
}
