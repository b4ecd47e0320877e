// The shards of a sharded sweep as `missing` finds them, and its advice (shard_survey.hpp).
#include "shard_survey.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "slurm_cluster.hpp"
#include "slurm_scripts.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

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

// What the shard's file (or journal) says of it, before the merged file and Slurm have a say.
ShardLine ReadShard(int index, const SweepSetup& setup) {
  ShardLine line{index, setup.out_path, ShardCondition::kAbsent,
                 "absent (never run, or its file was removed)"};
  const bool journal = std::filesystem::exists(setup.journal_path);
  if (journal && JournalInUse(setup.journal_path)) {
    // Checked first: a run that has just begun may not have written its identity yet.
    line.condition = ShardCondition::kRunning;
    line.detail = "running now (a pmoe-sweep process holds its journal)";
    return line;
  }
  if (!std::filesystem::exists(setup.out_path) && !journal) return line;
  const SweepState state = ReadSweepState(setup.out_path);
  const std::string diff =
      DescribeDifference(state.identity, setup.identity, "the file", "the config");
  const size_t missing = state.Missing();
  if (!diff.empty() &&
      DescribeGrowthProblem(state.identity, setup.identity, "the file", "the config").empty()) {
    // The config grows the shard's sweep: its run keeps what the file holds.
    line.condition = ShardCondition::kIncomplete;
    line.detail =
        "grown by the config (" +
        DescribeGrowth(state.identity, setup.identity, TrialsDecidedByRounds(setup.config)) +
        "): its new trials are to run";
  } else if (!diff.empty()) {
    line.condition = ShardCondition::kOther;
    line.detail = "holds another sweep: " + diff;
  } else if (missing > 0) {
    line.condition = ShardCondition::kIncomplete;
    line.detail = "incomplete: " + std::to_string(missing) + " of " +
                  std::to_string(state.planned ? *state.planned : state.held.size() + missing) +
                  " trials missing" + (state.planned ? "" : " (this round's)");
  } else {
    line.condition = ShardCondition::kComplete;
    // A shard whose rounds decide its work (adaptive, precision) has none left once its
    // source has stopped, so what it holds is counted instead.
    line.detail = "complete (" +
                  std::to_string(state.planned ? *state.planned : state.held.size()) + " trials" +
                  (state.planned ? "" : ", " + state.source->RoundNote()) + ")";
  }
  return line;
}

// The merged file and the Slurm queue over what the shard's file says.
void ApplyMergedAndQueue(const ShardSurvey& survey, SlurmQueue& queue, ShardLine& line) {
  if (line.condition == ShardCondition::kAbsent && survey.merged_complete) {
    line.condition = ShardCondition::kComplete;
    line.detail = "complete in the merged file " + survey.merged + " (its shard file was removed)";
  }
  const auto queued = queue.state.find(line.index);
  if (queued != queue.state.end() && line.condition != ShardCondition::kRunning &&
      line.condition != ShardCondition::kOther && line.condition != ShardCondition::kComplete) {
    line.condition =
        queued->second == "RUNNING" ? ShardCondition::kRunning : ShardCondition::kQueued;
    line.detail =
        "in Slurm: task " + queue.job[line.index] + " " + queued->second + "; " + line.detail;
  }
}

// Runs one sbatch of a retry through `run`: what it printed, or ConfigError with what it said.
std::string RetrySubmit(const CommandRunner& run, const std::string& command) {
  bool ok = false;
  const std::string output = run(command, &ok);
  if (!ok) throw ConfigError("retry: \"" + command + "\" failed: " + output);
  return output;
}

// The merge job's retry: resubmits what failed for reasons worth retrying, with more memory
// and time, and a merge job after them; false when nothing was resubmitted.
bool RetryFailed(std::ostream& advice, const ShardSurvey& s, int retry, const SlurmJob& job,
                 const std::string& script, const CommandRunner& run) {
  std::vector<int> again;
  for (int i : s.to_submit) {
    const std::string state = FirstLine(ShardStatePath(s.merged, i));
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
  if (again.empty() || retry >= job.retries) return false;
  const double factor = std::pow(1.5, retry + 1);
  const int mem = static_cast<int>(std::atoi(ScriptDirective(script, "mem").c_str()) * factor);
  const int minutes = static_cast<int>(ParseSlurmTime(ScriptDirective(script, "time")) * factor);
  std::string more;
  if (mem > 0) more += " --mem=" + std::to_string(mem) + "M";
  if (minutes > 0) more += " --time=" + SlurmTime(minutes);
  const Submitter submit = [&](const std::string& command) {
    const std::string id = RetrySubmit(run, command);
    return id.substr(0, id.find_first_of(";\n"));
  };
  std::string after;
  for (const std::string& id : SubmitChunks(job, again, more, submit)) after += ":" + id;
  const std::string id =
      RetrySubmit(run, "sbatch --parsable --dependency=afterany" + after +
                           " --export=ALL,PMOE_RETRY=" + std::to_string(retry + 1) + " " +
                           ShellQuote(MergeScriptPath(s.merged)));
  advice << "retry " << retry + 1 << " of " << job.retries << ": resubmitted shards "
         << JoinIndices(again) << " with" << more << " (x" << factor
         << "), and a merge job after them: " << id;
  return true;
}

// The commands that run again the shards that lack trials, then merge.
void FinishAdvice(std::ostream& advice, const ShardSurvey& s, const MissingInput& in,
                  const SlurmJob& job, bool fits, const std::vector<std::string>& merge_words) {
  advice << "\nto finish, run again the shards that lack trials (" << JoinIndices(s.to_submit)
         << "); each resumes from what its file holds:\n";
  if (fits) {
    advice << "  " << SubmitCommand(job, s.to_submit, "") << "\n";
    return;
  }
  for (int i : s.to_submit) {
    std::vector<std::string> run = {in.tool, "run", in.config, "--shard",
                                    std::to_string(i) + "/" + std::to_string(s.shards)};
    if (!in.out.empty()) run.insert(run.end(), {"--out", in.out});
    advice << "  " << ShellCommand(run) << "\n";
  }
  advice << "then merge: " << ShellCommand(merge_words) << "\n";
}

// The advice, said on `advice`; its exit status.
int Advise(std::ostream& advice, const ShardSurvey& s, const MissingInput& in,
           const CommandRunner& run) {
  if (s.Done()) {
    advice << "\nthe merged file " << s.merged << " is complete: nothing to run or merge\n";
    return 0;
  }
  if (!s.others.empty()) {
    advice << "\n"
           << s.others.size() << " shard files hold another sweep; move them away "
           << "(pmoe-sweep refuses to overwrite them), then run this command again:\n";
    for (const std::string& f : s.others)
      advice << "  " << ShellCommand({"mv", f, f + ".other"}) << "\n";
    return 1;
  }
  std::vector<std::string> merge_words = {in.tool, "merge", s.merged};
  merge_words.insert(merge_words.end(), s.shard_files.begin(), s.shard_files.end());
  if (!s.running.empty())
    advice << "\nshards " << JoinIndices(s.running) << " are queued or running; wait for them "
           << "(pmoe-sweep watch, squeue --me) before resubmitting them\n";
  if (s.to_submit.empty() && s.running.empty()) {
    advice << "\nall " << s.shards << " shards of " << s.name << " are complete; merge them:\n  "
           << ShellCommand(merge_words) << "\n";
    return 0;
  }
  if (s.to_submit.empty()) return 1;
  const std::string script = ReadOptionalText(ArrayScriptPath(s.merged), "the array script");
  SlurmJob job;
  job.out = s.merged;
  job.shards = s.shards;
  job.workdir = std::filesystem::current_path().string();
  const bool fits = ReadScriptLine(script, s.shards, &job.chunk, &job.retries);
  job.throttle = ScriptThrottle(script);  // one budget, kept by every resubmission
  if (in.retry >= 0 && fits && RetryFailed(advice, s, in.retry, job, script, run))
    return kRetrySubmitted;  // the merge job running this ends COMPLETED, not FAILED
  FinishAdvice(advice, s, in, job, fits, merge_words);
  return 1;
}

}  // namespace

const char* ConditionName(ShardCondition condition) {
  switch (condition) {
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

bool ShardSurvey::Done() const {
  return merged_complete && to_submit.empty() && running.empty() && others.empty();
}

ShardSurvey SurveyShards(const std::string& config, const std::string& out, int shards,
                         const std::function<void(const ShardLine&)>& on_line) {
  ShardSurvey survey;
  survey.shards = shards;
  survey.merged_complete = MergedComplete(config, out);
  SlurmQueue queue;
  for (int i = 1; i <= shards; ++i) {
    const SweepSetup setup = PrepareSweep(config, out, {i, shards});
    survey.merged = setup.merged_path;
    survey.name = setup.config.name;
    if (i == 1)  // the array's tasks still queued or running, by shard
      queue = QueuedShards(JobTag(std::filesystem::absolute(survey.merged).string()));
    survey.shard_files.push_back(setup.out_path);
    ShardLine line = ReadShard(i, setup);
    ApplyMergedAndQueue(survey, queue, line);
    if (line.condition == ShardCondition::kIncomplete || line.condition == ShardCondition::kAbsent)
      survey.to_submit.push_back(i);
    if (line.condition == ShardCondition::kRunning || line.condition == ShardCondition::kQueued)
      survey.running.push_back(i);
    if (line.condition == ShardCondition::kOther) survey.others.push_back(setup.out_path);
    survey.lines.push_back(line);
    if (on_line) on_line(survey.lines.back());
  }
  return survey;
}

std::string RunWithErrors(const std::string& command, bool* ok) {
  return RunCommand(command, ok, /*with_errors=*/true);
}

MissingAdvice AdviseMissing(const ShardSurvey& survey, const MissingInput& input,
                            const CommandRunner& run) {
  MissingAdvice advice;
  std::ostringstream said;
  try {
    advice.status = Advise(said, survey, input, run);
  } catch (...) {
    advice.stopped_by = std::current_exception();
  }
  advice.text = said.str();
  return advice;
}

}  // namespace pmoe
