// `pmoe-sweep missing CONFIG.ini --shards K [--out F]`: for each shard of a sharded sweep, whether
// its file is complete, incomplete (how many trials short), absent, being written now or of
// another sweep; then the exact command that finishes just the shards that need it (the
// generated array script when there is one, else `pmoe-sweep run --shard I/K`), or the merge
// command when all are complete. Exit status 0 when every shard is complete, 1 otherwise.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/sweep_runner.hpp"
#include "slurm_scripts.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

enum class ShardCondition { kComplete, kIncomplete, kAbsent, kRunning, kOther };

// Whether the generated array script at `path` is for K shards of this config.
bool ScriptFits(const std::string& path, int shards) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  return text.str().find("--shard auto/" + std::to_string(shards) + " ") != std::string::npos;
}

std::string JoinIndices(const std::vector<int>& indices) {
  std::string out;
  for (int i : indices) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

}  // namespace

int RunMissingCommand(const std::vector<std::string>& args, const std::string& command_line) {
  const std::string usage = "pmoe-sweep missing CONFIG.ini --shards K [--out F]";
  std::string config, out;
  int shards = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--out")
      out = OptionValue(args, &i);
    else if (a == "--shards")
      shards = ParseShard("1/" + OptionValue(args, &i)).count;
    else if (config.empty() && a.rfind("--", 0) != 0)
      config = a;
    else
      UnexpectedArgument(a, usage);
  }
  if (config.empty() || shards == 0) throw ConfigError("missing: expected " + usage);
  const std::string tool = command_line.substr(0, command_line.find(' '));

  std::vector<int> to_submit, running;
  std::vector<std::string> shard_files, others;
  std::string merged, name;
  for (int i = 1; i <= shards; ++i) {
    const SweepSetup setup = PrepareSweep(config, out, {i, shards});
    merged = setup.merged_path;
    name = setup.config.name;
    shard_files.push_back(setup.out_path);
    ShardCondition condition = ShardCondition::kAbsent;
    std::string detail = "absent (never run, or its file was removed)";
    const bool journal = std::filesystem::exists(setup.journal_path);
    if (journal && JournalInUse(setup.journal_path)) {
      // Checked first: a run that has just begun may not have written its identity yet.
      condition = ShardCondition::kRunning;
      detail = "running now (a pmoe-sweep process holds its journal)";
    } else if (std::filesystem::exists(setup.out_path) || journal) {
      const SweepState state = ReadSweepState(setup.out_path);
      const std::string diff =
          DescribeDifference(state.identity, setup.identity, "the file", "the config");
      const size_t missing = state.Missing();
      if (!diff.empty() &&
          DescribeGrowthProblem(state.identity, setup.identity, "the file", "the config").empty()) {
        // The config grows the shard's sweep: its run keeps what the file holds.
        condition = ShardCondition::kIncomplete;
        detail = "grown by the config (" + DescribeGrowth(state.identity, setup.identity) +
                 "): its new trials are to run";
      } else if (!diff.empty()) {
        condition = ShardCondition::kOther;
        detail = "holds another sweep: " + diff;
      } else if (missing > 0) {
        condition = ShardCondition::kIncomplete;
        detail = "incomplete: " + std::to_string(missing) + " of " +
                 std::to_string(state.work.size()) + " trials missing";
      } else {
        condition = ShardCondition::kComplete;
        detail = "complete (" + std::to_string(state.work.size()) + " trials)";
      }
    }
    if (condition == ShardCondition::kIncomplete || condition == ShardCondition::kAbsent)
      to_submit.push_back(i);
    if (condition == ShardCondition::kRunning) running.push_back(i);
    if (condition == ShardCondition::kOther) others.push_back(setup.out_path);
    std::cout << "shard " << i << "/" << shards << " " << setup.out_path << ": " << detail << "\n";
  }

  if (!others.empty()) {
    std::cout << "\n"
              << others.size() << " shard files hold another sweep; move them away "
              << "(pmoe-sweep refuses to overwrite them), then run this command again:\n";
    for (const std::string& f : others)
      std::cout << "  mv " << ShellQuote(f) << " " << ShellQuote(f + ".other") << "\n";
    return 1;
  }
  if (!running.empty())
    std::cout << "\nshards " << JoinIndices(running) << " are running; wait for them "
              << "(squeue --me) before resubmitting them\n";
  if (to_submit.empty() && running.empty()) {
    std::cout << "\nall " << shards << " shards of " << name << " are complete; merge them:\n  "
              << tool << " merge " << merged;
    for (const std::string& f : shard_files) std::cout << " " << f;
    std::cout << "\n";
    return 0;
  }
  if (to_submit.empty()) return 1;
  const std::string array = ArrayScriptPath(merged), merge = MergeScriptPath(merged);
  std::cout << "\nto finish, run again the shards that lack trials (" << JoinIndices(to_submit)
            << "); each resumes from what its file holds:\n";
  if (ScriptFits(array, shards)) {
    std::cout << "  jid=$(sbatch --parsable --array=" << JoinIndices(to_submit) << " " << array
              << ") && sbatch --dependency=afterany:$jid " << merge << "\n";
  } else {
    for (int i : to_submit)
      std::cout << "  " << tool << " run " << config << " --shard " << i << "/" << shards
                << (out.empty() ? "" : " --out " + out) << "\n";
    std::cout << "then merge: " << tool << " merge " << merged;
    for (const std::string& f : shard_files) std::cout << " " << f;
    std::cout << "\n";
  }
  return 1;
}

}  // namespace pmoe
