// `pmoe-sweep missing CONFIG.ini --shards K [--out F]`: for each shard of a sharded sweep, whether
// its file is complete, incomplete (how many trials short), absent, being written now or of
// another sweep; then the exact command that finishes just the shards that need it (the
// generated array script when there is one, else `pmoe-sweep run --shard I/K`), or the merge
// command when all are complete. Exit status 0 when every shard is complete, 1 otherwise.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/file_check.hpp"
#include "commands.hpp"
#include "pmoe/io/json_writer.hpp"
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

const char* ConditionName(ShardCondition c) {
  switch (c) {
    case ShardCondition::kComplete: return "complete";
    case ShardCondition::kIncomplete: return "incomplete";
    case ShardCondition::kAbsent: return "absent";
    case ShardCondition::kRunning: return "running";
    case ShardCondition::kOther: return "other_sweep";
  }
  return "";
}

struct ShardLine {
  int index = 0;
  std::string file;
  ShardCondition condition = ShardCondition::kAbsent;
  std::string detail;
};

}  // namespace

cli::Command MissingCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "missing";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "which shards are complete, incomplete, absent, running or of another sweep, "
              "and the command that finishes them; exit 1 until all are complete";
  c.options = {
      {"shards", "K", "the number of shards the sweep was split into (required)", {}, ""},
      {"out", "F", "the merged result file given to run/slurm --out (default results/NAME.h5)",
       {}, ""},
      {"json", "", "print the shards and the advice as one JSON object", {}, ""},
  };
  return c;
}

int MissingAdvice(std::ostream& advice, const std::string& config, const std::string& out,
                  const std::string& tool, int shards, const std::string& name,
                  const std::string& merged, const std::vector<std::string>& shard_files,
                  const std::vector<std::string>& others, const std::vector<int>& running,
                  const std::vector<int>& to_submit);

int RunMissingCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::string config = args.operands.at(0);
  const std::string out = args.Get("out").value_or("");
  const bool json = args.Has("json");
  if (!args.Has("shards"))
    throw ConfigError("command line: missing needs --shards K (usage: " + MissingCommand().Usage() +
                      ")");
  const int shards = ParseShard("1/" + *args.Get("shards")).count;
  cli::RequireConfigFile(config);
  std::ostringstream advice_text;
  std::ostream& advice = json ? advice_text : std::cout;
  std::vector<ShardLine> lines;
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
    lines.push_back({i, setup.out_path, condition, detail});
    if (!json)
      std::cout << "shard " << i << "/" << shards << " " << setup.out_path << ": " << detail
                << "\n";
  }
  const int status = MissingAdvice(advice, config, out, tool, shards, name, merged, shard_files,
                                   others, running, to_submit);
  if (json) {
    JsonWriter w(std::cout);
    w.BeginObject().Field("config", config).Field("shards", shards).Field("merged", merged);
    w.Key("shard_list").BeginArray();
    for (const ShardLine& l : lines)
      w.BeginObject()
          .Field("shard", l.index)
          .Field("file", l.file)
          .Field("condition", ConditionName(l.condition))
          .Field("detail", l.detail)
          .EndObject();
    w.EndArray().Field("complete", status == 0).Field("advice", advice_text.str()).EndObject();
    std::cout << "\n";
  }
  return status;
}

// What to do next: move other sweeps' files away, wait, merge, or resubmit; 0 when all shards
// are complete.
int MissingAdvice(std::ostream& advice, const std::string& config, const std::string& out,
                  const std::string& tool, int shards, const std::string& name,
                  const std::string& merged, const std::vector<std::string>& shard_files,
                  const std::vector<std::string>& others, const std::vector<int>& running,
                  const std::vector<int>& to_submit) {

  if (!others.empty()) {
    advice << "\n"
              << others.size() << " shard files hold another sweep; move them away "
              << "(pmoe-sweep refuses to overwrite them), then run this command again:\n";
    for (const std::string& f : others)
      advice << "  mv " << ShellQuote(f) << " " << ShellQuote(f + ".other") << "\n";
    return 1;
  }
  if (!running.empty())
    advice << "\nshards " << JoinIndices(running) << " are running; wait for them "
              << "(squeue --me) before resubmitting them\n";
  if (to_submit.empty() && running.empty()) {
    advice << "\nall " << shards << " shards of " << name << " are complete; merge them:\n  "
              << tool << " merge " << merged;
    for (const std::string& f : shard_files) advice << " " << f;
    advice << "\n";
    return 0;
  }
  if (to_submit.empty()) return 1;
  const std::string array = ArrayScriptPath(merged), merge = MergeScriptPath(merged);
  advice << "\nto finish, run again the shards that lack trials (" << JoinIndices(to_submit)
            << "); each resumes from what its file holds:\n";
  if (ScriptFits(array, shards)) {
    advice << "  jid=$(sbatch --parsable --array=" << JoinIndices(to_submit) << " " << array
              << ") && sbatch --dependency=afterany:$jid " << merge << "\n";
  } else {
    for (int i : to_submit)
      advice << "  " << tool << " run " << config << " --shard " << i << "/" << shards
                << (out.empty() ? "" : " --out " + out) << "\n";
    advice << "then merge: " << tool << " merge " << merged;
    for (const std::string& f : shard_files) advice << " " << f;
    advice << "\n";
  }
  return 1;
}

}  // namespace pmoe
