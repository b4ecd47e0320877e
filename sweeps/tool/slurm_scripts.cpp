// The text of the generated Slurm scripts. Each says in comments what it is, how its time and
// memory were chosen and how to resubmit part of it, so that a user can read and adapt it.
// Every outside value goes through ShellQuote (commands, #SBATCH values) or CommentText
// (comments); sbatch's parser of #SBATCH lines honours the same single quotes as the shell.
#include "slurm_scripts.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/sweep/run/work_plan.hpp"

namespace pmoe {
namespace {

std::string Stem(const std::string& out) {
  const bool h5 = out.size() > 3 && out.compare(out.size() - 3, 3, ".h5") == 0;
  return h5 ? out.substr(0, out.size() - 3) : out;
}

std::string Header(const SlurmJob& job, const std::string& what) {
  std::string s = "#!/bin/bash\n# " + CommentText(what) +
                  "\n# Written by: " + CommentText(job.generated_by) + "\n";
  for (const std::string& note : job.notes) s += "# " + CommentText(note) + "\n";
  return s;
}

// Slurm opens the log before the script runs, relative to where sbatch was called: make it
// absolute, so that submitting from anywhere logs to the same place.
std::string Absolute(const SlurmJob& job, const std::string& path) {
  return !path.empty() && path[0] == '/' ? path : job.workdir + "/" + path;
}

// A directory for #SBATCH --output: % starts a Slurm file-name pattern, %% is a plain %.
std::string LogPattern(const SlurmJob& job, const std::string& file_pattern) {
  std::string dir;
  for (char c : Absolute(job, job.script_dir + "/logs")) dir += c == '%' ? "%%" : std::string(1, c);
  return ShellQuote(dir + "/" + file_pattern, "the log directory");
}

std::string CommonLines(const SlurmJob& job) {
  std::string s = "#SBATCH --comment=" + JobTag(Absolute(job, job.out)) + "\n";
  for (const std::string& line : job.extra) s += line + "\n";
  // The site's lines before strict mode (issue 44): an activate script that reads an unset
  // variable would otherwise kill every task before it wrote any state.
  if (!job.setup.empty()) s += "# The site's setup (--setup):\n";
  for (const std::string& line : job.setup) s += line + "\n";
  s += "set -u\n";
  s += "cd " + ShellQuote(job.workdir, "the working directory") + " || exit 1\n";
  return s;
}

std::string Q(const std::string& word) { return ShellQuote(word); }

}  // namespace

void CheckJob(const SlurmJob& job) {
  const std::pair<const std::string*, const char*> values[] = {
      {&job.tool, "the path of pmoe-sweep"},     {&job.workdir, "the working directory"},
      {&job.config, "the config's path"},        {&job.out, "--out"},
      {&job.script_dir, "the script directory"}, {&job.name, "the sweep's name"}};
  for (const auto& [value, what] : values)
    if (const std::string problem = UnquotableProblem(*value, what); !problem.empty())
      throw ConfigError(problem);
  for (const std::string& line : job.extra)
    if (line.find_first_of("\n\r") != std::string::npos)
      throw ConfigError("an #SBATCH line holds a newline: one line at a time");
  for (const std::string& line : job.setup)
    if (line.find_first_of("\n\r") != std::string::npos)
      throw ConfigError("--setup \"" + CommentText(line) +
                        "\": one line at a time (give --setup "
                        "again for another line)");
}

std::string SlurmDir(const std::string& out) { return Stem(out) + ".slurm"; }
std::string ArrayScriptPath(const std::string& out) { return SlurmDir(out) + "/array.sbatch"; }
std::string MergeScriptPath(const std::string& out) { return SlurmDir(out) + "/merge.sbatch"; }
std::string DecideScriptPath(const std::string& out) { return SlurmDir(out) + "/decide.sbatch"; }
std::string AfterScriptPath(const SlurmJob& job) {
  return job.looks ? DecideScriptPath(job.out) : MergeScriptPath(job.out);
}
std::string MergeStatePath(const std::string& out) { return SlurmDir(out) + "/logs/merge.state"; }
std::string ShardStatePath(const std::string& out, int shard) {
  return SlurmDir(out) + "/logs/shard-" + std::to_string(shard) + ".state";
}

bool RetryableState(const std::string& state) {
  if (state == "started" || state == "requeue-cap") return true;
  // Exit 4: the node lacks the build's instruction set; more time or memory cannot help.
  return state.rfind("exit ", 0) == 0 && state != "exit 0" && state != "exit 2" &&
         state != "exit 4";
}

std::string StateAdvice(const std::string& state) {
  if (state != "wrong-cpu" && state != "exit 4") return "";
  return "the node lacks the instruction set this build was compiled for; not retried: use a "
         "build for the oldest node (cmake -DPMOE_MARCH=x86-64-v3) or keep the tasks on nodes "
         "that have it (--sbatch --constraint=FEATURE)";
}

std::string JobTag(const std::string& absolute_out) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "pmoe-%016llx",
                static_cast<unsigned long long>(
                    HashString(std::filesystem::path(absolute_out).lexically_normal().string())));
  return buf;
}

std::string SlurmTime(int minutes) {
  char buf[32];
  if (minutes >= 24 * 60)
    std::snprintf(buf, sizeof buf, "%d-%02d:%02d:00", minutes / (24 * 60), minutes / 60 % 24,
                  minutes % 60);
  else
    std::snprintf(buf, sizeof buf, "%02d:%02d:00", minutes / 60, minutes % 60);
  return buf;
}

std::string OffsetOptions(const SlurmJob& job, int offset) {
  if (offset == 0) return "";
  const std::string n = std::to_string(offset);
  return " --export=ALL,PMOE_SHARD_OFFSET=" + n + " --comment=" + JobTag(Absolute(job, job.out)) +
         "+" + n;
}

std::string ArrayChunk::ArraySpec(int throttle) const {
  std::string s;
  for (size_t i = 0; i < task_ids.size();) {
    size_t j = i;
    while (j + 1 < task_ids.size() && task_ids[j + 1] == task_ids[j] + 1) ++j;
    if (j < i + 2) j = i;  // a range from three ids on: "3,4" reads better than "3-4"
    s += (s.empty() ? "" : ",") + std::to_string(task_ids[i]);
    if (j > i) s += "-" + std::to_string(task_ids[j]);
    i = j + 1;
  }
  return throttle > 0 ? s + "%" + std::to_string(throttle) : s;
}

std::vector<ArrayChunk> ChunksOf(const std::vector<int>& shards, int chunk) {
  std::vector<ArrayChunk> chunks;
  for (int shard : shards) {
    const int offset = chunk > 0 ? (shard - 1) / chunk * chunk : 0;
    if (chunks.empty() || chunks.back().offset != offset) chunks.push_back({offset, {}});
    chunks.back().task_ids.push_back(shard - offset);
  }
  return chunks;
}

std::vector<std::string> SubmitChunks(const SlurmJob& job, const std::vector<int>& shards,
                                      const std::string& more, const Submitter& submit) {
  std::vector<int> all;
  for (int i = 1; i <= job.shards; ++i) all.push_back(i);
  const bool everything = shards == all;
  const std::vector<ArrayChunk> chunks = ChunksOf(shards, job.chunk);
  // One throttle for the whole submission (issue 44): chunks side by side would each run
  // %N tasks at once, so throttled chunks are chained, each after the one before has ended.
  const bool chained = job.throttle > 0 && chunks.size() > 1;
  std::vector<std::string> ids;
  for (const ArrayChunk& chunk : chunks) {
    std::string s = "sbatch --parsable";
    // The script's own --array covers all shards in one chunk without a throttle.
    if (!everything || chunks.size() > 1 || job.throttle > 0)
      s += " --array=" + chunk.ArraySpec(job.throttle);
    if (chained && !ids.empty()) s += " --dependency=afterany:" + ids.back();
    s += OffsetOptions(job, chunk.offset) + more + " " + Q(ArrayScriptPath(job.out));
    ids.push_back(submit(s));
  }
  return ids;
}

std::string SubmitCommand(const SlurmJob& job, const std::vector<int>& shards,
                          const std::string& more) {
  // The same submissions as a command to paste: each id kept in a shell variable.
  std::string s, after;
  size_t count = ChunksOf(shards, job.chunk).size(), n = 0;
  SubmitChunks(job, shards, more, [&](const std::string& command) {
    const std::string var = count == 1 ? "jid" : "jid" + std::to_string(++n);
    s += var + "=$(" + command + ") && ";
    after += ":$" + var;
    return "$" + var;
  });
  return s + "sbatch --dependency=afterany" + after + " " + Q(AfterScriptPath(job));
}

int ScriptThrottle(const std::string& script) {
  const std::string array = ScriptDirective(script, "array");
  const size_t percent = array.find('%');
  return percent == std::string::npos ? 0 : std::atoi(array.c_str() + percent + 1);
}

std::string SubmitCommand(const SlurmJob& job) {
  std::vector<int> all;
  for (int i = 1; i <= job.shards; ++i) all.push_back(i);
  return SubmitCommand(job, all, job.first_limits);
}

std::string ScriptDirective(const std::string& script, const std::string& key) {
  const std::string prefix = "#SBATCH --" + key + "=";
  for (size_t at = script.find(prefix); at != std::string::npos; at = script.find(prefix, at + 1))
    if (at == 0 || script[at - 1] == '\n') {
      const size_t start = at + prefix.size();
      return script.substr(start, script.find('\n', start) - start);
    }
  return "";
}

std::string ArrayScript(const SlurmJob& job) {
  CheckJob(job);
  const std::string k = std::to_string(job.shards);
  const int first_chunk = job.chunk > 0 && job.chunk < job.shards ? job.chunk : job.shards;
  std::string s =
      Header(job, "Sweep " + job.name + (job.looks ? ", one look of its precision targets," : "") +
                      " as a Slurm job array: task I runs shard "
                      "I + PMOE_SHARD_OFFSET (default 0) of " +
                      k + ".");
  s += "# pmoe-sweep array: shards=" + k + " chunk=" + std::to_string(job.chunk) +
       " retries=" + std::to_string(job.retries) + "\n";
  if (job.looks) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "# pmoe-sweep looks: ratio=%.17g margin=%.17g base_mb=%d time=%s mem=%s\n",
                  job.time_ratio, job.margin, job.base_mb, job.fixed_time ? "fixed" : "estimated",
                  job.fixed_mem ? "fixed" : "estimated");
    s += line;
  }
  s += std::string("# Submit all (and the ") + (job.looks ? "decide" : "merge") +
       " job after it):\n#   " + SubmitCommand(job) + "\n";
  s += "# Resubmit some shards: pmoe-sweep missing prints the command.\n";
  s += "# A task still running " + std::to_string(job.signal_seconds) +
       " s before its time limit gets USR1: it saves what finished, requeues itself (only\n"
       "# itself: array id _ task id), and resumes where it stopped; at most " +
       std::to_string(job.max_requeues) + " times.\n";
  s += "#SBATCH --job-name=" + Q("pmoe-" + job.name) + "\n";
  s += "#SBATCH --array=1-" + std::to_string(first_chunk) +
       (job.throttle > 0 ? "%" + std::to_string(job.throttle) : "") + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(job.cpus) + "\n";
  s += "#SBATCH --time=" + SlurmTime(job.time_minutes) + "\n";
  s += "#SBATCH --mem=" + std::to_string(job.mem_mb) + "M\n";
  s += "#SBATCH --output=" + LogPattern(job, "%x-%A_%a.out") + "\n";
  s += "#SBATCH --open-mode=append\n";
  s += "#SBATCH --signal=B:USR1@" + std::to_string(job.signal_seconds) + "\n";
  s += "#SBATCH --requeue\n";
  s += CommonLines(job);
  s += "shard=$((SLURM_ARRAY_TASK_ID + ${PMOE_SHARD_OFFSET:-0}))\n";
  s += "state=" + Q(Absolute(job, job.script_dir + "/logs")) + "/shard-$shard.state\n";
  s += "echo started > \"$state\"\n";
  // A look chain's task runs its share of the look the merged file leads to (look-shard).
  s += Q(job.tool) + (job.looks ? " look-shard " : " run ") + Q(job.config) + " --shard \"$shard/" +
       k + "\" --out " + Q(job.out) +
       " \\\n    --threads \"${SLURM_CPUS_PER_TASK:-1}\" "
       "--test-cache-mb " +
       std::to_string(job.test_cache_mb) + " &\n";
  s += "pid=$!\n"
       "# USR1 (the time limit is near): pmoe-sweep stops taking trials, saves, exits 130, and\n"
       "# the task is requeued. TERM (scancel): it saves and exits; the task ends cancelled.\n"
       "requeue=0 cancelled=0\n"
       "trap 'trapped=1 requeue=1; kill -TERM \"$pid\" 2>/dev/null' USR1\n"
       "trap 'trapped=1 cancelled=1; kill -TERM \"$pid\" 2>/dev/null' TERM\n"
       "# A trapped signal ends `wait` early (status 128 + signal): wait again, until it returns\n"
       "# pmoe-sweep's own exit status.\n"
       "while :; do trapped=0; wait \"$pid\"; status=$?; [ \"$trapped\" = 1 ] || break; done\n"
       "# What the merge job's `missing --retry` reads: bad input (exit 2) and cancelled tasks\n"
       "# are not resubmitted; other failures are, with more memory and time.\n"
       "if [ \"$cancelled\" = 1 ]; then echo cancelled; elif [ \"$status\" = 2 ]; then echo "
       "bad-input;\n"
       "elif [ \"$status\" = 4 ]; then echo wrong-cpu;\n"
       "elif [ \"$requeue\" = 1 ] && [ \"$status\" = 130 ]; then echo started;\n"
       "else echo \"exit $status\"; fi > \"$state\"\n"
       "[ \"$status\" = 4 ] && echo \"pmoe-sweep: shard $shard: " +
       StateAdvice("wrong-cpu") +
       "\"\n"
       "if [ \"$requeue\" = 1 ] && [ \"$status\" = 130 ]; then\n"
       "  if [ \"${SLURM_RESTART_COUNT:-0}\" -ge " +
       std::to_string(job.max_requeues) +
       " ]; then\n"
       "    echo \"pmoe-sweep: shard $shard/" +
       k +
       " saved before the time limit, but not requeued: it was requeued "
       "${SLURM_RESTART_COUNT} times already (the cap is " +
       std::to_string(job.max_requeues) +
       "); give it more --time\"\n"
       "    echo requeue-cap > \"$state\"\n"
       "    exit 1\n"
       "  fi\n"
       "  echo \"pmoe-sweep: shard $shard/" +
       k +
       " saved before the time limit; requeueing it\"\n"
       "  # This task only: for the array's last task $SLURM_JOB_ID is the whole array's id.\n"
       "  scontrol requeue \"${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\" && exit 0\n"
       "fi\n"
       "exit \"$status\"\n";
  return s;
}

namespace {

// The lines a merge job and a look's decide job share: one name and comment, so that squeue,
// watch and missing find either as the sweep's merge job; its resources and log; and $mstate,
// what `watch` shows of the job once the queue has forgotten it (no accounting needed).
std::string MergeJobLines(const SlurmJob& job) {
  std::string s = "#SBATCH --job-name=" + Q("pmoe-" + job.name + "-merge") + "\n";
  s += "#SBATCH --cpus-per-task=1\n";
  s += "#SBATCH --time=" + SlurmTime(job.merge_time_minutes) + "\n";
  s += "#SBATCH --mem=" + std::to_string(job.merge_mem_mb) + "M\n";
  s += "#SBATCH --output=" + LogPattern(job, "%x-%j.out") + "\n";
  s += CommonLines(job);
  s += "mstate=" + Q(Absolute(job, MergeStatePath(job.out))) + "\n";
  return s;
}

// After `missing --retry` or `look-decide`: exit 75 means failed shards were resubmitted with a
// merge (decide) job after them. This job has done its part and ends COMPLETED, so the
// accounting (and failure mail) does not call it FAILED.
std::string RetrySubmittedLines() {
  return "status=$?\nif [ \"$status\" = " + std::to_string(kRetrySubmitted) +
         " ]; then echo retry-submitted > \"$mstate\"; exit 0; fi\n";
}

}  // namespace

std::string MergeScript(const SlurmJob& job) {
  CheckJob(job);
  const std::string k = std::to_string(job.shards);
  std::string s = Header(job, "Merges the " + k + " shards of sweep " + job.name + " into " +
                                  job.out + " once the array has ended (--dependency=afterany).");
  s += "# When a shard is missing or incomplete it merges nothing: pmoe-sweep missing --retry\n"
       "# resubmits the shards that failed for reasons other than bad input, with more memory\n"
       "# and time, and a merge job after them (at most " +
       std::to_string(job.retries) + " times); its log says what it did and what is left.\n";
  s += MergeJobLines(job);
  s += "echo \"started (attempt ${PMOE_RETRY:-0})\" > \"$mstate\"\n";
  s += Q(job.tool) + " missing " + Q(job.config) + " --shards " + k + " --out " + Q(job.out) +
       " --retry \"${PMOE_RETRY:-0}\"\n";
  s += RetrySubmittedLines() +
       "if [ \"$status\" != 0 ]; then echo \"shards-missing\" > \"$mstate\"; exit 1; fi\n";
  s += Q(job.tool) + " merge " + Q(job.out);
  for (int i = 1; i <= job.shards; ++i) s += " \\\n    " + Q(ShardPath(job.out, {i, job.shards}));
  s += "\nstatus=$?\n"
       "if [ \"$status\" = 0 ]; then echo merged; else echo \"exit $status\"; fi > \"$mstate\"\n"
       "exit \"$status\"\n";
  return s;
}

std::string DecideScript(const SlurmJob& job) {
  CheckJob(job);
  const std::string k = std::to_string(job.shards);
  std::string s =
      Header(job, "Decides a look of sweep " + job.name + "'s precision targets once its " + k +
                      " shards have ended (--dependency=afterany).");
  s += "# It merges the shards into " + CommentText(job.out) +
       ", replays the looks, decides this one and, while a target\n"
       "# is running, submits the next look's array and a decide job after it. A shard that\n"
       "# failed (not for bad input, not cancelled) is resubmitted with more memory and time,\n"
       "# with a decide job after it, at most " +
       std::to_string(job.retries) + " times a look; pmoe-sweep missing says what is left.\n";
  s += MergeJobLines(job);
  s += "echo \"deciding (attempt ${PMOE_RETRY:-0})\" > \"$mstate\"\n";
  s += Q(job.tool) + " look-decide " + Q(job.config) + " --shards " + k + " --out " + Q(job.out) +
       " --retry \"${PMOE_RETRY:-0}\"\n";
  s += RetrySubmittedLines() +
       // look-decide records its own outcome; a crash leaves "deciding": say how it ended.
       "if [ \"$status\" != 0 ] && grep -q '^deciding' \"$mstate\"; then\n"
       "  echo \"exit $status\" > \"$mstate\"\nfi\n"
       "exit \"$status\"\n";
  return s;
}

}  // namespace pmoe
