// `pmoe-sweep slurm CONFIG.ini --shards K ...`: writes (or prints, or submits) the job array
// that runs a sweep as K shards and the merge job chained after it. The time asked for is the
// slowest shard's share of a pilot-measured estimate times a stated margin; the memory is the
// larger of the static model and what the pilot process measured, plus the test-set cache,
// times the margin.
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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
#include "slurm_estimate.hpp"
#include "slurm_scripts.hpp"

namespace pmoe {
namespace {

struct SlurmOptions {
  std::string config, out;
  int shards = 0, cpus = 4;
  size_t pilot = 16;
  double margin = 2;
  int time_minutes = 0, mem_mb = 0;  // 0: estimated
  std::vector<std::string> extra, setup;
  int throttle = 0, retries = 2, array_limit = -1;  // array_limit -1: ask scontrol
  bool print = false, submit = false, json = false;
};

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
    else if (name == "sbatch") {
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
      o.extra.push_back(line);
    } else if (name == "sbatch-file")
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

// "P" of an #SBATCH --partition=P or -p P line; "" when none names one.
std::string PartitionOf(const std::vector<std::string>& extra) {
  std::string partition;
  for (const std::string& line : extra) {
    for (const char* key : {"--partition=", "-p "}) {
      const size_t at = line.find(key);
      if (at == std::string::npos) continue;
      const size_t start = line.find_first_not_of(' ', at + std::strlen(key));
      if (start != std::string::npos) partition = line.substr(start, line.find(' ', start) - start);
    }
  }
  return partition;
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

// Computes the job and writes, prints or submits its scripts, saying so on stdout.
int WriteSlurmJob(const SlurmOptions& o, const std::string& command_line, SlurmJob& job) {
  const SweepSetup setup = PrepareSweep(o.config, o.out, {});
  job.name = setup.config.name;
  job.tool = std::filesystem::canonical("/proc/self/exe").string();
  job.workdir = std::filesystem::current_path().string();
  job.config = o.config;
  job.out = setup.merged_path;
  job.script_dir = SlurmDir(job.out);
  job.shards = o.shards;
  job.cpus = o.cpus;
  job.extra = o.extra;
  job.setup = o.setup;
  job.throttle = o.throttle;
  job.retries = o.retries;
  job.generated_by = command_line;
  job.looks = setup.config.precision.has_value();  // a look chain over the whole array
  CheckJob(job);  // a newline in a path: refused before anything is measured or written
  RefuseAnotherBuild(o.config, o.out, o.shards, job.out);
  int max_array = o.array_limit > 0 ? o.array_limit : SlurmMaxArraySize();
  if (max_array <= 0) {  // no controller answered: Slurm's default, not "no limit"
    max_array = kDefaultMaxArraySize;
    if (o.shards > max_array - 1)
      job.notes.push_back("array: scontrol did not answer; Slurm's default MaxArraySize " +
                          std::to_string(max_array) + " assumed (--array-limit N says)");
  }
  if (o.shards > max_array - 1) {
    job.chunk = max_array - 1;
    job.notes.push_back("array: " + std::to_string(o.shards) + " shards in chunks of " +
                        std::to_string(job.chunk) + " tasks (the cluster's MaxArraySize is " +
                        std::to_string(max_array) + ")");
  }

  EstimateJob(setup, {o.shards, o.cpus, o.pilot, o.margin, o.time_minutes, o.mem_mb}, job);

  const std::string array = ArrayScript(job),
                    merge = job.looks ? DecideScript(job) : MergeScript(job);
  const std::string partition = PartitionOf(o.extra);
  if (const int node_cpus = SlurmMaxNodeCpus(partition); node_cpus > 0 && o.cpus > node_cpus)
    std::cerr << "pmoe-sweep: warning: --cpus " << o.cpus << " but the nodes of "
              << (partition.empty() ? "the default partition" : "partition " + partition)
              << " have at most " << node_cpus << " CPUs: the tasks would stay pending forever "
              << "(use --cpus " << node_cpus << " or less)\n";
  if (o.print) {
    std::cout << "# " << ArrayScriptPath(job.out) << "\n"
              << array << "\n# " << AfterScriptPath(job) << "\n"
              << merge;
    return 0;
  }
  std::filesystem::create_directories(job.script_dir + "/logs");
  WriteScript(ArrayScriptPath(job.out), array, "#!/bin/bash\n# Sweep ");
  WriteScript(AfterScriptPath(job), merge,
              job.looks ? "#!/bin/bash\n# Decides a look" : "#!/bin/bash\n# Merges the ");
  std::cout << "wrote " << ArrayScriptPath(job.out) << " (" << o.shards << " tasks, " << o.cpus
            << (o.cpus == 1 ? " CPU, " : " CPUs, ") << SlurmTime(job.time_minutes) << ", "
            << job.mem_mb << " MB each) and " << AfterScriptPath(job) << "; logs go to "
            << job.script_dir << "/logs\n";
  for (const std::string& note : job.notes) std::cout << "  " << note << "\n";
  const std::string submit = SubmitCommand(job);
  if (!o.submit) {
    std::cout << "submit with:\n  " << submit << "\n";
    return 0;
  }
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
  std::cout << "submitted job array " << array_id << " (" << o.shards << " tasks) and "
            << (job.looks ? "decide" : "merge") << " job " << merge_id << " after it\n"
            << "  watch: "
            << ShellCommand({tool, "watch", o.config, "--shards", std::to_string(o.shards)})
            << (o.out.empty() ? "" : " --out " + ShellQuote(o.out))
            << ";  after it: " << ShellCommand(missing) << "\n";
  return 0;
}

}  // namespace

int RunSlurmCommand(const cli::Parsed& args, const std::string& command_line) {
  const SlurmOptions o = Parse(args);
  SlurmJob job;
  if (!o.json) return WriteSlurmJob(o, command_line, job);
  // --json: the same work, its text captured and given as "text" beside the job's numbers.
  std::ostringstream text;
  std::streambuf* const stdout_buffer = std::cout.rdbuf(text.rdbuf());
  int status = 0;
  try {
    status = WriteSlurmJob(o, command_line, job);
  } catch (...) {
    std::cout.rdbuf(stdout_buffer);
    throw;
  }
  std::cout.rdbuf(stdout_buffer);
  JsonWriter w(std::cout);
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
  w.EndArray().Field("text", text.str()).EndObject();
  std::cout << "\n";
  return status;
}

}  // namespace pmoe
