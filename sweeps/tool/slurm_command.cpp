// `pmoe-sweep slurm CONFIG.ini --shards K ...`: writes (or prints, or submits) the job array
// that runs a sweep as K shards and the merge job chained after it. The time asked for is the
// slowest shard's share of a pilot-measured estimate times a stated margin; the memory is the
// larger of the static model and what the pilot process measured, plus the test-set cache,
// times the margin.
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "pmoe/cli/file_check.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/durable_file.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/run/pilot.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"
#include "slurm_checks.hpp"
#include "slurm_cluster.hpp"
#include "slurm_job.hpp"
#include "slurm_scripts.hpp"

namespace pmoe {
namespace {

// The request and what to do with the job it makes.
struct SlurmOptions : SlurmRequest {
  bool print = false, submit = false, json = false;
};

// --sbatch LINE as an #SBATCH line ("#SBATCH " added when absent); a shell line is refused.
std::string SbatchLine(const std::string& text) {
  std::string line = text;
  if (line.find_first_of("\n\r") != std::string::npos)
    throw ConfigError("--sbatch: one line at a time");
  if (line.rfind("#SBATCH ", 0) != 0) line = "#SBATCH " + line;
  // An #SBATCH line holds sbatch options; "module load gcc" would be ignored there.
  if (line.find_first_not_of(' ', 8) == std::string::npos ||
      line[line.find_first_not_of(' ', 8)] != '-')
    throw ConfigError("--sbatch \"" + line.substr(8) +
                      "\": expected an sbatch option such as --partition=P; a shell line "
                      "(module load ..., source ...) goes in with --setup");
  return line;
}

SlurmOptions Parse(const cli::Parsed& args) {
  SlurmOptions o;
  o.config = args.operands.at(0);
  for (const auto& [name, text] : args.options) {
    const std::string a = "--" + name;
    auto whole = [&](double least, double most, const char* expected) {
      const double v = ParseNumber(a, text, least, true, most, expected);
      if (v != std::floor(v)) throw ConfigError("command line", a, expected, text);
      return v;
    };
    if (name == "shards")
      o.shards = ParseShard("1/" + text).count;
    else if (name == "out")
      o.out = text;
    else if (name == "cpus")
      o.cpus = static_cast<int>(whole(1, 4096, "a whole number of CPUs, 1 or more"));
    else if (name == "pilot")
      o.pilot = static_cast<size_t>(whole(0, 1e6, "a whole number of trials, 0 or more"));
    else if (name == "margin")
      o.margin = ParseNumber(a, text, 1, true, 100, "a factor of 1 or more");
    else if (name == "time") {
      o.time_minutes = static_cast<int>(whole(1, 1e6, "whole minutes, 1 or more"));
      if (o.time_minutes < kMinTaskMinutes)
        throw ConfigError("--time " + std::to_string(o.time_minutes) + ": at least " +
                          std::to_string(kMinTaskMinutes) +
                          " minutes (a task is told to save up to 150 s before its limit: "
                          "Slurm's USR1 comes 90 s before it, or up to 60 s earlier)");
    } else if (name == "throttle")
      o.throttle = static_cast<int>(whole(1, 1e6, "a whole number of tasks at once, 1 or more"));
    else if (name == "retries")
      o.retries = static_cast<int>(whole(0, 10, "a whole number of retries, 0 to 10"));
    else if (name == "array-limit")
      o.array_limit = static_cast<int>(whole(2, 1e7, "the cluster's MaxArraySize, 2 or more"));
    else if (name == "setup") {
      if (text.find_first_of("\n\r") != std::string::npos)
        throw ConfigError("--setup: one line at a time (give --setup again for another)");
      o.setup.push_back(text);
    } else if (name == "mem")
      o.mem_mb = static_cast<int>(whole(1, 1e9, "whole megabytes, 1 or more"));
    else if (name == "sbatch")
      o.extra.push_back(SbatchLine(text));
    else if (name == "sbatch-file")
      ReadTemplate(text, &o.extra);
    else if (name == "print")
      o.print = true;
    else if (name == "submit")
      o.submit = true;
    else if (name == "json")
      o.json = true;
  }
  if (o.shards == 0)
    throw ConfigError("command line: slurm needs --shards K (usage: " + SlurmCommand().Usage() +
                      ")");
  if (o.print && o.submit) throw ConfigError("slurm: --print and --submit exclude each other");
  CheckTimeLines(o.extra);
  cli::RequireConfigFile(o.config);
  return o;
}

// Runs an sbatch --parsable command; returns the job id it printed ("JOBID[;CLUSTER]").
std::string SubmittedId(const std::string& command) {
  bool ok = false;
  const std::string output = RunCommand(command, &ok, /*with_errors=*/true);
  const std::string id = output.substr(0, output.find_first_of(";\n"));
  if (!ok || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError("\"" + command + "\" failed" + (output.empty() ? "" : ": " + output) +
                      (output.find("not found") != std::string::npos ? " (no Slurm here?)" : ""));
  return id;
}

// Writes a generated script without following a link at its path; a file there that is not
// one of ours (its first line and comment) is moved aside with a message, never overwritten.
void WriteScript(const std::string& path, const std::string& text, const std::string& ours) {
  RefuseSymlink(path, "the Slurm script");
  // Before reading what is there: a FIFO at the path would block the read forever.
  if (const std::string problem = OutputFileProblem(path); !problem.empty())
    throw ConfigError(path + ": " + problem);
  std::ifstream old(path, std::ios::binary);
  if (old) {
    std::string head(ours.size(), '\0');
    old.read(&head[0], static_cast<std::streamsize>(head.size()));
    if (head != ours)
      std::cerr << "pmoe-sweep: " << path << " is not a script pmoe-sweep wrote: moved to "
                << MoveAside(path) << "\n";
  }
  ReplaceFileDurably(path, std::vector<char>(text.begin(), text.end()));
}

}  // namespace

cli::Command SlurmCommand() {
  cli::Command c;
  c.tool = "pmoe-sweep";
  c.name = "slurm";
  c.operands = "CONFIG.ini";
  c.min_operands = c.max_operands = 1;
  c.summary = "write (or print, or submit) a Slurm job array of K shards and its merge job";
  c.description =
      "Writes F-without-.h5.slurm/array.sbatch (K tasks, C CPUs each, time and memory from a "
      "pilot of T trials times the margin X) and merge.sbatch; --print shows them instead, "
      "--submit submits both (the merge after the array).";
  c.options = {
      {"shards", "K", "the number of array tasks, each one shard (required)", {}, ""},
      {"out", "F", "the merged result file (default results/NAME.h5)", {}, ""},
      {"cpus", "C", "CPUs per task (default 4)", {}, ""},
      {"pilot",
       "T",
       "trials of the pilot that measures the time (default 16; 0: the static "
       "model alone)",
       {},
       ""},
      {"margin", "X", "factor on the estimated time and memory, 1..100 (default 2)", {}, ""},
      {"time", "MINUTES", "the time limit per task instead of the estimate", {}, ""},
      {"mem", "MB", "the memory per task instead of the estimate", {}, ""},
      {"sbatch", "LINE", "an extra #SBATCH line for both scripts (repeatable)", {}, ""},
      {"sbatch-file", "F", "a site template of #SBATCH lines", {"sbatch_file"}, ""},
      {"setup",
       "LINE",
       "a shell line run before the tool in both scripts, e.g. 'module load gcc' "
       "(repeatable)",
       {},
       ""},
      {"throttle", "N", "at most N array tasks running at once (%N)", {}, ""},
      {"retries",
       "R",
       "resubmissions of tasks that failed for reasons other than bad input, "
       "with more time and memory, 0..10 (default 2)",
       {},
       ""},
      {"array-limit",
       "N",
       "the cluster's MaxArraySize (default: asked of scontrol)",
       {"array_limit"},
       ""},
      {"print", "", "print the scripts instead of writing them", {}, ""},
      {"submit", "", "write and submit both (sbatch), the merge after the array", {}, ""},
      {"json",
       "",
       "print the job (scripts, tasks, time, memory, notes) as one JSON object",
       {},
       ""},
  };
  return c;
}

namespace {

// Submits the array (in chunks) and the job after it; says so on `out`.
void SubmitSlurmJob(const SlurmOptions& o, const std::string& command_line, const SlurmJob& job,
                    std::ostream& out) {
  std::vector<int> every_shard;
  for (int i = 1; i <= o.shards; ++i) every_shard.push_back(i);
  std::string array_id, after;
  for (const std::string& id : SubmitChunks(job, every_shard, job.first_limits, SubmittedId)) {
    array_id += (array_id.empty() ? "" : ",") + id;
    after += ":" + id;
  }
  const std::string merge_id = SubmittedId("sbatch --parsable --dependency=afterany" + after + " " +
                                           ShellQuote(AfterScriptPath(job)));
  const std::string tool = command_line.substr(0, command_line.find(' '));
  std::vector<std::string> missing = {tool, "missing", o.config, "--shards",
                                      std::to_string(o.shards)};
  if (!o.out.empty()) missing.insert(missing.end(), {"--out", o.out});
  out << "submitted job array " << array_id << " (" << o.shards << " tasks) and "
      << (job.looks ? "decide" : "merge") << " job " << merge_id << " after it\n"
      << "  watch: "
      << ShellCommand({tool, "watch", o.config, "--shards", std::to_string(o.shards)})
      << (o.out.empty() ? "" : " --out " + ShellQuote(o.out))
      << ";  after it: " << ShellCommand(missing) << "\n";
}

// Prints the job's scripts, or writes them (and submits them), saying so on `out`.
int WriteSlurmJob(const SlurmOptions& o, const std::string& command_line,
                  const SlurmJobScripts& made, std::ostream& out) {
  const SlurmJob& job = made.job;
  if (!made.cpu_warning.empty()) std::cerr << "pmoe-sweep: warning: " << made.cpu_warning << "\n";
  if (o.print) {
    out << "# " << ArrayScriptPath(job.out) << "\n"
        << made.array_script << "\n# " << AfterScriptPath(job) << "\n"
        << made.after_script;
    return 0;
  }
  std::filesystem::create_directories(job.script_dir + "/logs");
  WriteScript(ArrayScriptPath(job.out), made.array_script, "#!/bin/bash\n# Sweep ");
  WriteScript(AfterScriptPath(job), made.after_script,
              job.looks ? "#!/bin/bash\n# Decides a look" : "#!/bin/bash\n# Merges the ");
  out << "wrote " << ArrayScriptPath(job.out) << " (" << o.shards << " tasks, " << o.cpus
      << (o.cpus == 1 ? " CPU, " : " CPUs, ") << SlurmTime(job.time_minutes) << ", " << job.mem_mb
      << " MB each) and " << AfterScriptPath(job) << "; logs go to " << job.script_dir << "/logs\n";
  for (const std::string& note : job.notes) out << "  " << note << "\n";
  const std::string submit = SubmitCommand(job);
  if (!o.submit) {
    out << "submit with:\n  " << submit << "\n";
    return 0;
  }
  SubmitSlurmJob(o, command_line, job, out);
  return 0;
}

// The job's numbers, its notes and what the command said ("text"), as one JSON object.
void RenderSlurmJson(const SlurmOptions& o, const SlurmJob& job, const std::string& text,
                     std::ostream& out) {
  JsonWriter w(out);
  w.BeginObject()
      .Field("array_script", ArrayScriptPath(job.out))
      .Field("merge_script", AfterScriptPath(job))
      .Field("written", !o.print)
      .Field("submitted", o.submit)
      .Field("look_chain", job.looks)
      .Field("shards", job.shards)
      .Field("cpus", job.cpus)
      .Field("time_minutes", job.time_minutes)
      .Field("mem_mb", job.mem_mb)
      .Field("merge_time_minutes", job.merge_time_minutes)
      .Field("merge_mem_mb", job.merge_mem_mb);
  w.Key("notes").BeginArray();
  for (const std::string& note : job.notes) w.Value(note);
  w.EndArray().Field("text", text).EndObject();
  out << "\n";
}

}  // namespace

// Parse, compute (MakeSlurmJob: slurm_job.hpp), write or submit, render.
int RunSlurmCommand(const cli::Parsed& args, const std::string& command_line) {
  const SlurmOptions o = Parse(args);
  const SlurmJobScripts made = MakeSlurmJob(o, command_line);
  if (!o.json) return WriteSlurmJob(o, command_line, made, std::cout);
  // --json: the same work, its text captured and given as "text" beside the job's numbers.
  std::ostringstream text;
  const int status = WriteSlurmJob(o, command_line, made, text);
  RenderSlurmJson(o, made.job, text.str(), std::cout);
  return status;
}

}  // namespace pmoe
