// The text of the generated Slurm scripts. Each says in comments what it is, how its time and
// memory were chosen and how to resubmit part of it, so that a user can read and adapt it.
#include "slurm_scripts.hpp"

#include <cstdio>

#include "pmoe/sweep/work_plan.hpp"

namespace pmoe {
namespace {

std::string Stem(const std::string& out) {
  const bool h5 = out.size() > 3 && out.compare(out.size() - 3, 3, ".h5") == 0;
  return h5 ? out.substr(0, out.size() - 3) : out;
}

std::string Header(const SlurmJob& job, const std::string& what) {
  std::string s = "#!/bin/bash\n# " + what + "\n# Written by: " + job.generated_by + "\n";
  for (const std::string& note : job.notes) s += "# " + note + "\n";
  return s;
}

// Slurm opens the log before the script runs, relative to where sbatch was called: make it
// absolute, so that submitting from anywhere logs to the same place.
std::string Absolute(const SlurmJob& job, const std::string& path) {
  return !path.empty() && path[0] == '/' ? path : job.workdir + "/" + path;
}

std::string CommonLines(const SlurmJob& job) {
  std::string s;
  for (const std::string& line : job.extra) s += line + "\n";
  s += "set -u\ncd " + ShellQuote(job.workdir) + " || exit 1\n";
  return s;
}

}  // namespace

std::string SlurmDir(const std::string& out) { return Stem(out) + ".slurm"; }
std::string ArrayScriptPath(const std::string& out) { return SlurmDir(out) + "/array.sbatch"; }
std::string MergeScriptPath(const std::string& out) { return SlurmDir(out) + "/merge.sbatch"; }

std::string SlurmTime(int minutes) {
  char buf[32];
  if (minutes >= 24 * 60)
    std::snprintf(buf, sizeof buf, "%d-%02d:%02d:00", minutes / (24 * 60), minutes / 60 % 24,
                  minutes % 60);
  else
    std::snprintf(buf, sizeof buf, "%02d:%02d:00", minutes / 60, minutes % 60);
  return buf;
}

std::string ShellQuote(const std::string& word) {
  std::string s = "'";
  for (char c : word) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return s + "'";
}

std::string ArrayScript(const SlurmJob& job) {
  const std::string k = std::to_string(job.shards);
  const std::string logs = Absolute(job, job.script_dir + "/logs");
  std::string s = Header(job, "Sweep " + job.name +
                                  " as a Slurm job array: task I runs shard "
                                  "I/" +
                                  k + " of it (pmoe-sweep run --shard auto/" + k + ").");
  s += "# Submit all:  sbatch " + ArrayScriptPath(job.out) +
       "\n"
       "# Resubmit some shards (the task id is the shard number):  sbatch --array=I,J,... " +
       ArrayScriptPath(job.out) +
       "\n"
       "# A task still running " +
       std::to_string(job.signal_seconds) +
       " s before its time "
       "limit gets USR1: it saves what finished and is requeued, and resumes where it stopped.\n";
  s += "#SBATCH --job-name=pmoe-" + job.name + "\n";
  s += "#SBATCH --array=1-" + k + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(job.cpus) + "\n";
  s += "#SBATCH --time=" + SlurmTime(job.time_minutes) + "\n";
  s += "#SBATCH --mem=" + std::to_string(job.mem_mb) + "M\n";
  s += "#SBATCH --output=" + logs + "/%x-%A_%a.out\n";
  s += "#SBATCH --open-mode=append\n";
  s += "#SBATCH --signal=B:USR1@" + std::to_string(job.signal_seconds) + "\n";
  s += "#SBATCH --requeue\n";
  s += CommonLines(job);
  s += ShellQuote(job.tool) + " run " + ShellQuote(job.config) + " --shard auto/" + k + " --out " +
       ShellQuote(job.out) +
       " \\\n    --threads \"${SLURM_CPUS_PER_TASK:-1}\" "
       "--test-cache-mb " +
       std::to_string(job.test_cache_mb) + " &\n";
  s += "pid=$!\n"
       "# USR1 (the time limit is near): pmoe-sweep stops taking trials, saves, exits 130, and\n"
       "# the task is requeued. TERM (scancel): it saves and exits; the task ends cancelled.\n"
       "requeue=0\n"
       "trap 'requeue=1; kill -TERM \"$pid\" 2>/dev/null' USR1\n"
       "trap 'kill -TERM \"$pid\" 2>/dev/null' TERM\n"
       "wait \"$pid\"; status=$?\n"
       "while kill -0 \"$pid\" 2>/dev/null; do wait \"$pid\"; status=$?; done\n"
       "if [ \"$requeue\" = 1 ] && [ \"$status\" = 130 ]; then\n"
       "  echo \"pmoe-sweep: shard $SLURM_ARRAY_TASK_ID/" +
       k +
       " saved before the time limit; "
       "requeueing it\"\n"
       "  scontrol requeue \"$SLURM_JOB_ID\" && exit 0\n"
       "fi\n"
       "exit \"$status\"\n";
  return s;
}

std::string MergeScript(const SlurmJob& job) {
  const std::string k = std::to_string(job.shards);
  std::string s = Header(job, "Merges the " + k + " shards of sweep " + job.name + " into " +
                                  job.out + " once the array has ended (--dependency=afterany).");
  s += "# When a shard is missing or incomplete it merges nothing, and its log says which and\n"
       "# the command that finishes them (pmoe-sweep missing).\n";
  s += "#SBATCH --job-name=pmoe-" + job.name + "-merge\n";
  s += "#SBATCH --cpus-per-task=1\n";
  s += "#SBATCH --time=" + SlurmTime(job.merge_time_minutes) + "\n";
  s += "#SBATCH --mem=" + std::to_string(job.merge_mem_mb) + "M\n";
  s += "#SBATCH --output=" + Absolute(job, job.script_dir + "/logs") + "/%x-%j.out\n";
  s += CommonLines(job);
  s += ShellQuote(job.tool) + " missing " + ShellQuote(job.config) + " --shards " + k + " --out " +
       ShellQuote(job.out) + " || exit 1\n";
  s += ShellQuote(job.tool) + " merge " + ShellQuote(job.out);
  for (int i = 1; i <= job.shards; ++i)
    s += " \\\n    " + ShellQuote(ShardPath(job.out, {i, job.shards}));
  s += "\n";
  return s;
}

}  // namespace pmoe
