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

#include "cli/file_check.hpp"
#include "commands.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/pilot.hpp"
#include "pmoe/sweep/sweep_runner.hpp"
#include "slurm_scripts.hpp"

namespace pmoe {
namespace {

struct SlurmOptions {
  std::string config, out;
  int shards = 0, cpus = 4;
  size_t pilot = 16;
  double margin = 2;
  int time_minutes = 0, mem_mb = 0;  // 0: estimated
  std::vector<std::string> extra;
  bool print = false, submit = false, json = false;
};

std::string Format(const char* format, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

// The #SBATCH lines of a site template: lines that are not #SBATCH directives are refused, so
// that nothing else slips into the scripts.
void ReadTemplate(const std::string& path, std::vector<std::string>* extra) {
  std::ifstream in(path);
  if (!in) throw ConfigError("--sbatch-file " + path + ": cannot read it");
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line.rfind("#!", 0) == 0) continue;
    if (line.rfind("#SBATCH ", 0) != 0)
      throw ConfigError("--sbatch-file " + path + ": \"" + line +
                        "\": expected #SBATCH lines only");
    extra->push_back(line);
  }
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
    else if (name == "time")
      o.time_minutes = static_cast<int>(whole(1, 1e6, "whole minutes, 1 or more"));
    else if (name == "mem")
      o.mem_mb = static_cast<int>(whole(1, 1e9, "whole megabytes, 1 or more"));
    else if (name == "sbatch") {
      std::string line = text;
      if (line.rfind("#SBATCH ", 0) != 0) line = "#SBATCH " + line;
      if (line.find('\n') != std::string::npos) throw ConfigError("--sbatch: one line at a time");
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
  cli::RequireConfigFile(o.config);
  return o;
}

// Runs `command` and returns its first line of output; throws naming it when it fails.
std::string RunForLine(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) throw ConfigError("cannot run " + command);
  std::string output;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe)) output += buf;
  const int status = ::pclose(pipe);
  if (status != 0)
    throw ConfigError("\"" + command + "\" failed: " + output +
                      (output.find("not found") != std::string::npos ? " (no Slurm here?)" : ""));
  return output.substr(0, output.find_first_of("\n;"));  // --parsable: "JOBID[;CLUSTER]"
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
      {"pilot", "T", "trials of the pilot that measures the time (default 16; 0: the static "
                     "model alone)", {}, ""},
      {"margin", "X", "factor on the estimated time and memory, 1..100 (default 2)", {}, ""},
      {"time", "MINUTES", "the time limit per task instead of the estimate", {}, ""},
      {"mem", "MB", "the memory per task instead of the estimate", {}, ""},
      {"sbatch", "LINE", "an extra #SBATCH line for both scripts (repeatable)", {}, ""},
      {"sbatch-file", "F", "a site template of #SBATCH lines", {"sbatch_file"}, ""},
      {"print", "", "print the scripts instead of writing them", {}, ""},
      {"submit", "", "write and submit both (sbatch), the merge after the array", {}, ""},
      {"json", "", "print the job (scripts, tasks, time, memory, notes) as one JSON object",
       {}, ""},
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
  job.generated_by = command_line;

  // The static model's cost of each shard, and of the test sets a task may keep.
  const std::vector<WorkItem> all = PlanWork(setup.cells, setup.config.trials);
  double slowest = 0, peak_trial = 0;
  for (int s = 1; s <= o.shards; ++s) {
    double cost = 0;
    for (const WorkItem& item : ShardOf(all, s, o.shards)) cost += item.cost;
    slowest = std::max(slowest, cost);
  }
  std::map<std::pair<std::string, int>, double> test_sets;
  for (const Cell& c : setup.cells) {
    peak_trial = std::max(peak_trial, EstimateTrialBytes(c.spec));
    test_sets[{CanonicalKey(c.spec, "data."), c.spec.N_test}] = EstimateTestSetBytes(c.spec);
  }
  double test_set_bytes = 0;
  for (const auto& entry : test_sets) test_set_bytes += entry.second * setup.config.trials;
  job.test_cache_mb = static_cast<int>(std::min(1000.0, std::ceil(test_set_bytes / 1e6)));

  double ratio = 1, rss_mb = 0;
  std::string how =
      "the static model (no pilot; early stopping can make it wrong many times "
      "over: --pilot T measures)";
  if (o.pilot > 0) {
    const PilotEstimate pilot = RunPilot(setup, all, o.pilot, o.cpus);
    ratio = pilot.ratio;
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    rss_mb = usage.ru_maxrss / 1024.0;  // kilobytes on Linux
    how = Format("a pilot of %.0f trials on %.0f thread(s) here, %.3g times the static model",
                 static_cast<double>(pilot.trials), o.cpus, pilot.ratio);
  }
  const double shard_minutes = slowest * ratio / o.cpus / 60;
  job.time_minutes = o.time_minutes > 0
                         ? o.time_minutes
                         : std::max(5, static_cast<int>(std::ceil(shard_minutes * o.margin + 3)));
  const double static_mb = (o.cpus * peak_trial) / 1e6 + 150;
  const double base_mb = std::max(static_mb, rss_mb);
  job.mem_mb =
      o.mem_mb > 0
          ? o.mem_mb
          : static_cast<int>(std::ceil((base_mb + job.test_cache_mb) * o.margin / 100) * 100);
  const double trials = static_cast<double>(all.size());
  job.merge_mem_mb = static_cast<int>(std::ceil((500 + trials * 2e-3) / 100) * 100);
  job.merge_time_minutes = std::max(10, static_cast<int>(std::ceil(trials / 2e5)));
  if (o.time_minutes > 0)
    job.notes.push_back("time: --time " + std::to_string(o.time_minutes));
  else
    job.notes.push_back(
        Format("time: the slowest shard ~%.1f min on %.0f CPU(s) by ", shard_minutes, o.cpus) +
        how + Format("; x margin %.3g, + 3 min", o.margin));
  if (o.mem_mb > 0)
    job.notes.push_back("memory: --mem " + std::to_string(o.mem_mb));
  else
    job.notes.push_back(
        Format("memory: (max(%.0f MB static, %.0f MB measured) + %.0f MB test-set cache)",
               static_mb, rss_mb, job.test_cache_mb) +
        Format(" x margin %.3g", o.margin));

  const std::string array = ArrayScript(job), merge = MergeScript(job);
  if (o.print) {
    std::cout << "# " << ArrayScriptPath(job.out) << "\n"
              << array << "\n# " << MergeScriptPath(job.out) << "\n"
              << merge;
    return 0;
  }
  std::filesystem::create_directories(job.script_dir + "/logs");
  std::ofstream(ArrayScriptPath(job.out)) << array;
  std::ofstream(MergeScriptPath(job.out)) << merge;
  if (!std::ofstream(ArrayScriptPath(job.out), std::ios::app) ||
      !std::ofstream(MergeScriptPath(job.out), std::ios::app))
    throw IoError(job.script_dir + ": cannot write the scripts");
  std::cout << "wrote " << ArrayScriptPath(job.out) << " (" << o.shards << " tasks, " << o.cpus
            << (o.cpus == 1 ? " CPU, " : " CPUs, ") << SlurmTime(job.time_minutes) << ", "
            << job.mem_mb << " MB each) and " << MergeScriptPath(job.out) << "; logs go to "
            << job.script_dir << "/logs\n";
  for (const std::string& note : job.notes) std::cout << "  " << note << "\n";
  const std::string submit_array = "sbatch --parsable " + ShellQuote(ArrayScriptPath(job.out));
  if (!o.submit) {
    std::cout << "submit with:\n  jid=$(sbatch --parsable " << ArrayScriptPath(job.out)
              << ") && sbatch --dependency=afterany:$jid " << MergeScriptPath(job.out) << "\n";
    return 0;
  }
  const std::string array_id = RunForLine(submit_array);
  const std::string merge_id = RunForLine("sbatch --parsable --dependency=afterany:" + array_id +
                                          " " + ShellQuote(MergeScriptPath(job.out)));
  std::cout << "submitted job array " << array_id << " (" << o.shards << " tasks) and merge job "
            << merge_id << " after it\n"
            << "  watch: squeue --me;  after it: " << command_line.substr(0, command_line.find(' '))
            << " missing " << o.config << " --shards " << o.shards
            << (o.out.empty() ? "" : " --out " + o.out) << "\n";
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
      .Field("merge_script", MergeScriptPath(job.out))
      .Field("written", !o.print)
      .Field("submitted", o.submit)
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
