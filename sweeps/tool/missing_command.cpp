// `pmoe-sweep missing CONFIG.ini --shards K [--out F] [--retry N]`: for each shard of a sharded
// sweep, whether its file is complete, incomplete (how many trials short), absent, queued or
// running in Slurm, being written now or of another sweep; then the exact command that finishes
// just the shards that need it (the generated array script when there is one, else `pmoe-sweep
// run --shard I/K`), or the merge command when all are complete. Every path in a printed command
// is quoted for the shell (ShellQuote). Exit status 0 when every shard is complete, 1 otherwise.
//
// --retry N (the generated merge job passes its attempt number): shards that ran and failed for
// a reason other than bad input or scancel (their logs/shard-I.state) are resubmitted with
// more memory and time, and a merge job after them with attempt N+1, while N is below the
// script's retries.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "slurm_cluster.hpp"
#include "slurm_looks.hpp"
#include "slurm_scripts.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

enum class ShardCondition { kComplete, kIncomplete, kAbsent, kRunning, kQueued, kOther };

// The generated array script's "# pmoe-sweep array: shards=K chunk=C retries=R" line; false when
// the script is absent or for another shard count.
bool ReadScriptLine(const std::string& script, int shards, int* chunk, int* retries) {
  const std::string key = "\n# pmoe-sweep array: shards=" + std::to_string(shards) + " chunk=";
  const size_t at = script.find(key);
  if (at == std::string::npos) return false;
  std::istringstream rest(script.substr(at + key.size()));
  std::string retries_word;
  rest >> *chunk >> retries_word;
  *retries = retries_word.rfind("retries=", 0) == 0 ? std::atoi(retries_word.c_str() + 8) : 0;
  return true;
}

std::string JoinIndices(const std::vector<int>& indices) {
  std::string out;
  for (int i : indices) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

const char* ConditionName(ShardCondition c) {
  switch (c) {
    case ShardCondition::kComplete:
      return "complete";
    case ShardCondition::kIncomplete:
      return "incomplete";
    case ShardCondition::kAbsent:
      return "absent";
    case ShardCondition::kRunning:
      return "running";
    case ShardCondition::kQueued:
      return "queued";
    case ShardCondition::kOther:
      return "other_sweep";
  }
  return "";
}

struct ShardLine {
  int index = 0;
  std::string file;
  ShardCondition condition = ShardCondition::kAbsent;
  std::string detail;
};

// "HH:MM:00" or "D-HH:MM:00" back to minutes; 0 when unreadable.
int ParseSlurmTime(const std::string& text) {
  int d = 0, h = 0, m = 0;
  if (std::sscanf(text.c_str(), "%d-%d:%d", &d, &h, &m) == 3) return (d * 24 + h) * 60 + m;
  if (std::sscanf(text.c_str(), "%d:%d", &h, &m) == 2) return h * 60 + m;
  return 0;
}

std::string FirstLine(const std::string& path) {
  const std::string text = ReadOptionalText(path, "the task's state file");
  return text.substr(0, text.find('\n'));
}

// Whether the merged file is there, of this very sweep, and holds every trial: shard files
// deleted after a complete merge are then not "absent" (issue 44), nothing is to be rerun.
bool MergedComplete(const std::string& config, const std::string& out) {
  const SweepSetup whole = PrepareSweep(config, out, {});
  if (!std::filesystem::exists(whole.merged_path)) return false;
  try {
    const SweepState state = ReadSweepState(whole.merged_path);
    return state.Missing() == 0 &&
           DescribeDifference(state.identity, whole.identity, "the file", "the config").empty();
  } catch (const SchemaError&) {
    return false;  // damaged: the shards' own states decide
  }
}

// One sbatch of a retry: its job id, or ConfigError with what sbatch said.
std::string RetrySubmit(const std::string& command) {
  bool ok = false;
  const std::string id = RunCommand(command, &ok, true);
  if (!ok) throw ConfigError("retry: \"" + command + "\" failed: " + id);
  return id.substr(0, id.find_first_of(";\n"));
}

}  // namespace

std::vector<cli::Option> ShardSetOptions() {
  return {
      {"shards", "K", "the number of shards the sweep was split into (required)", {}, ""},
      {"out",
       "F",
       "the merged result file given to run/slurm --out (default results/NAME.h5)",
       {},
       ""},
  };
}

int RequiredShards(const cli::Parsed& args, const cli::Command& command) {
  if (!args.Has("shards"))
    throw ConfigError("command line: " + command.name +
                      " needs --shards K (usage: " + command.Usage() + ")");
  return ParseShard("1/" + *args.Get("shards")).count;
}

cli::Command MissingCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "missing";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary =
      "which shards are complete, incomplete, absent, running or of another sweep, "
      "and the command that finishes them; exit 1 until all are complete";
  c.options = ShardSetOptions();
  c.options.insert(c.options.end(),
                   {
                       {"json", "", "print the shards and the advice as one JSON object", {}, ""},
                       {"resubmit",
                        "",
                        "(a precision look chain) submit the shards the current look lacks and "
                        "a decide job after them",
                        {},
                        ""},
                       {"retry",
                        "N",
                        "(the merge job's) resubmit failed tasks, attempt N, with more time and "
                        "memory",
                        {},
                        ""},
                   });
  return c;
}

int MissingAdvice(std::ostream& advice, const std::string& config, const std::string& out,
                  const std::string& tool, int shards, const std::string& name,
                  const std::string& merged, const std::vector<std::string>& shard_files,
                  const std::vector<std::string>& others, const std::vector<int>& running,
                  const std::vector<int>& to_submit, int retry);

int RunMissingCommand(const cli::Parsed& args, const std::string& command_line) {
  const std::string config = args.operands.at(0);
  const std::string out = args.Get("out").value_or("");
  const bool json = args.Has("json");
  const int shards = RequiredShards(args, MissingCommand());
  const int retry = args.Has("retry")
                        ? static_cast<int>(ParseNumber("--retry", *args.Get("retry"), 0, true, 100,
                                                       "the merge job's attempt number, 0 or more"))
                        : -1;
  cli::RequireConfigFile(config);
  // A precision config's look chain (slurm_looks.hpp): its shards hold parts of looks.
  const std::string tool = command_line.substr(0, command_line.find(' '));
  if (IsLookChain(PrepareSweep(config, out, {}).merged_path, shards))
    return LookMissing(config, out, shards, args.Has("resubmit"), tool);
  if (args.Has("resubmit"))
    throw ConfigError("missing --resubmit: " + config + " is not a look chain of " +
                      std::to_string(shards) + " shards (run the command missing prints)");
  std::ostringstream advice_text;
  std::ostream& advice = json ? advice_text : std::cout;
  std::vector<ShardLine> lines;

  std::vector<int> to_submit, running;
  std::vector<std::string> shard_files, others;
  std::string merged, name;
  SlurmQueue queue;
  bool queue_asked = false;
  const bool merged_complete = MergedComplete(config, out);
  for (int i = 1; i <= shards; ++i) {
    const SweepSetup setup = PrepareSweep(config, out, {i, shards});
    merged = setup.merged_path;
    name = setup.config.name;
    if (!queue_asked) {  // the array's tasks still queued or running, by shard
      queue = QueuedShards(JobTag(std::filesystem::absolute(merged).string()));
      queue_asked = true;
    }
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
        detail =
            "grown by the config (" +
            DescribeGrowth(state.identity, setup.identity, TrialsDecidedByRounds(setup.config)) +
            "): its new trials are to run";
      } else if (!diff.empty()) {
        condition = ShardCondition::kOther;
        detail = "holds another sweep: " + diff;
      } else if (missing > 0) {
        condition = ShardCondition::kIncomplete;
        detail = "incomplete: " + std::to_string(missing) + " of " +
                 std::to_string(state.planned ? *state.planned : state.held.size() + missing) +
                 " trials missing" + (state.planned ? "" : " (this round's)");
      } else {
        condition = ShardCondition::kComplete;
        // A shard whose rounds decide its work (adaptive, precision) has none left once its
        // source has stopped, so what it holds is counted instead.
        detail = "complete (" + std::to_string(state.planned ? *state.planned : state.held.size()) +
                 " trials" + (state.planned ? "" : ", " + state.source->RoundNote()) + ")";
      }
    }
    if (condition == ShardCondition::kAbsent && merged_complete) {
      condition = ShardCondition::kComplete;
      detail = "complete in the merged file " + merged + " (its shard file was removed)";
    }
    const auto queued = queue.state.find(i);
    if (queued != queue.state.end() && condition != ShardCondition::kRunning &&
        condition != ShardCondition::kOther && condition != ShardCondition::kComplete) {
      condition = queued->second == "RUNNING" ? ShardCondition::kRunning : ShardCondition::kQueued;
      detail = "in Slurm: task " + queue.job[i] + " " + queued->second + "; " + detail;
    }
    if (condition == ShardCondition::kIncomplete || condition == ShardCondition::kAbsent)
      to_submit.push_back(i);
    if (condition == ShardCondition::kRunning || condition == ShardCondition::kQueued)
      running.push_back(i);
    if (condition == ShardCondition::kOther) others.push_back(setup.out_path);
    lines.push_back({i, setup.out_path, condition, detail});
    if (!json)
      std::cout << "shard " << i << "/" << shards << " " << setup.out_path << ": " << detail
                << "\n";
  }
  const bool done = merged_complete && to_submit.empty() && running.empty() && others.empty();
  if (done) advice << "\nthe merged file " << merged << " is complete: nothing to run or merge\n";
  const int status = done ? 0
                          : MissingAdvice(advice, config, out, tool, shards, name, merged,
                                          shard_files, others, running, to_submit, retry);
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
                  const std::vector<int>& to_submit, int retry) {
  if (!others.empty()) {
    advice << "\n"
           << others.size() << " shard files hold another sweep; move them away "
           << "(pmoe-sweep refuses to overwrite them), then run this command again:\n";
    for (const std::string& f : others)
      advice << "  " << ShellCommand({"mv", f, f + ".other"}) << "\n";
    return 1;
  }
  std::vector<std::string> merge_words = {tool, "merge", merged};
  merge_words.insert(merge_words.end(), shard_files.begin(), shard_files.end());
  if (!running.empty())
    advice << "\nshards " << JoinIndices(running) << " are queued or running; wait for them "
           << "(pmoe-sweep watch, squeue --me) before resubmitting them\n";
  if (to_submit.empty() && running.empty()) {
    advice << "\nall " << shards << " shards of " << name << " are complete; merge them:\n  "
           << ShellCommand(merge_words) << "\n";
    return 0;
  }
  if (to_submit.empty()) return 1;

  const std::string array_path = ArrayScriptPath(merged);
  const std::string script = ReadOptionalText(array_path, "the array script");
  SlurmJob job;
  job.out = merged;
  job.shards = shards;
  job.workdir = std::filesystem::current_path().string();
  const bool fits = ReadScriptLine(script, shards, &job.chunk, &job.retries);
  job.throttle = ScriptThrottle(script);  // one budget, kept by every resubmission
  if (retry >= 0 && fits) {
    // The merge job: resubmit what failed for reasons worth retrying, with more of both.
    std::vector<int> again;
    for (int i : to_submit) {
      const std::string state = FirstLine(ShardStatePath(merged, i));
      if (RetryableState(state))
        again.push_back(i);
      else
        advice << "shard " << i << ": not retried ("
               << (state.empty() ? "its task never started: cancelled while pending?"
                                 : "its task ended: " + state)
               << ")" << (StateAdvice(state).empty() ? "" : ": " + StateAdvice(state)) << "\n";
    }
    if (!again.empty() && retry >= job.retries)
      advice << "shards " << JoinIndices(again) << " failed; not retried again: " << retry
             << " retries made (the cap is " << job.retries << ")\n";
    if (!again.empty() && retry < job.retries) {
      const double factor = std::pow(1.5, retry + 1);
      const int mem = static_cast<int>(std::atoi(ScriptDirective(script, "mem").c_str()) * factor);
      const int minutes =
          static_cast<int>(ParseSlurmTime(ScriptDirective(script, "time")) * factor);
      std::string more;
      if (mem > 0) more += " --mem=" + std::to_string(mem) + "M";
      if (minutes > 0) more += " --time=" + SlurmTime(minutes);
      std::string after;
      for (const std::string& id : SubmitChunks(job, again, more, RetrySubmit)) after += ":" + id;
      bool ok = false;
      const std::string merge_command = "sbatch --parsable --dependency=afterany" + after +
                                        " --export=ALL,PMOE_RETRY=" + std::to_string(retry + 1) +
                                        " " + ShellQuote(MergeScriptPath(merged));
      const std::string id = RunCommand(merge_command, &ok, true);
      if (!ok) throw ConfigError("retry: \"" + merge_command + "\" failed: " + id);
      advice << "retry " << retry + 1 << " of " << job.retries << ": resubmitted shards "
             << JoinIndices(again) << " with" << more << " (x" << factor
             << "), and a merge job after them: " << id;
      return kRetrySubmitted;  // the merge job running this ends COMPLETED, not FAILED
    }
  }
  advice << "\nto finish, run again the shards that lack trials (" << JoinIndices(to_submit)
         << "); each resumes from what its file holds:\n";
  if (fits) {
    advice << "  " << SubmitCommand(job, to_submit, "") << "\n";
  } else {
    for (int i : to_submit) {
      std::vector<std::string> run = {tool, "run", config, "--shard",
                                      std::to_string(i) + "/" + std::to_string(shards)};
      if (!out.empty()) run.insert(run.end(), {"--out", out});
      advice << "  " << ShellCommand(run) << "\n";
    }
    advice << "then merge: " << ShellCommand(merge_words) << "\n";
  }
  return 1;
}

}  // namespace pmoe
