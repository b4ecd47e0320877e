// The look chain's state and submissions: the merged file's rows (what the looks so far hold),
// the job read back from the array script, and `missing` inside the chain.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/precision/look_shards.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "slurm_checks.hpp"
#include "slurm_cluster.hpp"
#include "slurm_looks.hpp"
#include "sweep_state.hpp"

namespace pmoe {
namespace {

// One sbatch: its job id, or ConfigError with what sbatch said.
std::string Sbatch(const std::string& command) {
  std::cout << "+ " << command << "\n";  // the decide job's log says what it submitted
  bool ok = false;
  const std::string out = RunCommand(command, &ok, true);
  if (!ok) throw ConfigError("look chain: \"" + command + "\" failed: " + out);
  return out.substr(0, out.find_first_of(";\n"));
}

}  // namespace

StoredRows MergedLookRows(const SweepSetup& whole) {
  StoredRows rows;
  if (!std::filesystem::exists(whole.merged_path)) return rows;
  const ResultContents contents = ReadResultFile(whole.merged_path);
  const SweepIdentity held = IdentityOf(contents);
  // A file the config grows (the 40-trial grid a target starts from) gives its rows, as `run`
  // takes them; the decide job then rewrites it under the config's identity.
  const std::string diff =
      DescribeGrowthProblem(held, whole.identity, whole.merged_path, whole.config.path);
  if (!diff.empty())
    throw ConfigError(whole.merged_path + " holds another sweep than " + whole.config.path + ": " +
                      diff + " (move it away, or give another --out)");
  rows.Insert(contents.rows);
  return rows;
}

std::vector<std::pair<size_t, size_t>> LookProgress(const SweepSetup& whole, int shards) {
  const std::vector<WorkItem> look = CurrentLook(whole, MergedLookRows(whole));
  std::vector<std::pair<size_t, size_t>> progress;
  for (int i = 1; i <= shards; ++i) {
    const std::vector<WorkItem> share = LookShare(look, i, shards);
    const std::string path = LookShardPath(whole.merged_path, i, shards);
    size_t held = 0;
    if (std::filesystem::exists(path) || std::filesystem::exists(path + ".journal")) {
      const SweepState state = ReadSweepState(path);  // its file and journal
      for (const WorkItem& item : share)
        held += state.held.count({whole.cells[item.cell].id, item.trial});
    }
    progress.push_back({held, share.size()});
  }
  return progress;
}

bool IsLookChain(const std::string& merged, int shards) {
  const std::string decide = ReadOptionalText(DecideScriptPath(merged), "the decide script");
  return decide.find(" look-decide ") != std::string::npos &&
         decide.find(" --shards " + std::to_string(shards) + " ") != std::string::npos;
}

SlurmJob ChainJob(const std::string& merged, int shards) {
  SlurmJob job;
  job.out = merged;
  job.shards = shards;
  job.looks = true;
  job.workdir = std::filesystem::current_path().string();
  const std::string script = ReadOptionalText(ArrayScriptPath(merged), "the array script");
  const std::string key = "\n# pmoe-sweep array: shards=" + std::to_string(shards) + " chunk=";
  const size_t at = script.find(key);
  if (at == std::string::npos)
    throw ConfigError(ArrayScriptPath(merged) + ": not the array script of " +
                      std::to_string(shards) + " shards (write it again with pmoe-sweep slurm)");
  std::istringstream rest(script.substr(at + key.size()));
  std::string retries;
  rest >> job.chunk >> retries;
  job.retries = retries.rfind("retries=", 0) == 0 ? std::atoi(retries.c_str() + 8) : 0;
  job.throttle = ScriptThrottle(script);
  const size_t looks = script.find("\n# pmoe-sweep looks: ");
  if (looks != std::string::npos) {
    char time[16] = "", mem[16] = "";
    std::sscanf(script.c_str() + looks,
                "\n# pmoe-sweep looks: ratio=%lf margin=%lf base_mb=%d time=%15s mem=%15s",
                &job.time_ratio, &job.margin, &job.base_mb, time, mem);
    job.fixed_time = std::string(time) != "estimated";
    job.fixed_mem = std::string(mem) != "estimated";
  }
  job.cpus = std::max(1, std::atoi(ScriptDirective(script, "cpus-per-task").c_str()));
  job.time_minutes = SlurmMinutes(ScriptDirective(script, "time"));
  job.mem_mb = std::atoi(ScriptDirective(script, "mem").c_str());
  return job;
}

std::string SubmitLook(const SlurmJob& job, const std::vector<int>& shards, const std::string& more,
                       int retry) {
  std::string ids, after;
  for (const std::string& id : SubmitChunks(job, shards, more, Sbatch)) {
    ids += (ids.empty() ? "" : ",") + id;
    after += ":" + id;
  }
  // PMOE_RETRY set explicitly: a decide job submitting the next look passes on its environment.
  // No shard to wait for (the look's shards are complete but undecided): the decide job alone.
  const std::string dependency = after.empty() ? "" : " --dependency=afterany" + after;
  const std::string decide = Sbatch("sbatch --parsable" + dependency +
                                    " --export=ALL,PMOE_RETRY=" + std::to_string(retry) + " " +
                                    ShellQuote(DecideScriptPath(job.out)));
  return (ids.empty() ? "no shard lacks trials: " : "array " + ids + ", ") + "decide job " + decide;
}

std::string LookLimits(const SlurmJob& job, const std::vector<WorkItem>& look,
                       const std::vector<Cell>& cells) {
  LookShardEstimate e;
  AddLook(look, cells, job.shards, e);
  std::string more;
  // Never above the script's: that is the bound over every look the chain may run.
  const double minutes = e.slowest_share_seconds * job.time_ratio / job.cpus / 60;
  const int time = std::max(5, static_cast<int>(std::ceil(minutes * job.margin + 3)));
  if (!job.fixed_time && job.time_minutes > 0 && time < job.time_minutes)
    more += " --time=" + SlurmTime(time);
  const double test_mb = std::min(1000.0, std::ceil(e.test_set_bytes / 1e6));
  const int mem = static_cast<int>(std::ceil((job.base_mb + test_mb) * job.margin / 100) * 100);
  if (!job.fixed_mem && job.base_mb > 0 && mem < job.mem_mb)
    more += " --mem=" + std::to_string(mem) + "M";
  return more;
}

int LookMissing(const std::string& config, const std::string& out, int shards, bool resubmit,
                const std::string& tool) {
  const SweepSetup whole = PrepareSweep(config, out, {});
  const std::vector<std::pair<size_t, size_t>> progress = LookProgress(whole, shards);
  size_t look = 0;
  for (const auto& p : progress) look += p.second;
  if (look == 0 && std::filesystem::exists(whole.merged_path)) {
    std::cout << "the merged file " << whole.merged_path
              << " holds every look: every target is decided or out of budget\n";
    return 0;
  }
  SlurmQueue queue = QueuedShards(JobTag(std::filesystem::absolute(whole.merged_path).string()));
  std::vector<int> lacking, active;
  for (int i = 1; i <= shards; ++i) {
    const auto [held, size] = progress[static_cast<size_t>(i - 1)];
    std::cout << "shard " << i << "/" << shards << " "
              << LookShardPath(whole.merged_path, i, shards) << ": " << held << " of " << size
              << " trials of the current look";
    if (queue.state.count(i)) {
      std::cout << "; in Slurm: task " << queue.job[i] << " " << queue.state[i];
      active.push_back(i);
    } else if (held < size) {
      lacking.push_back(i);
    }
    std::cout << "\n";
  }
  if (!queue.merge_job.empty())
    std::cout << "decide job " << queue.merge_job << " " << queue.merge_state << "\n";
  if (!active.empty() || !queue.merge_job.empty()) {
    std::cout << "\nthe chain is running; wait for it (pmoe-sweep watch, squeue --me)\n";
    return 1;
  }
  SlurmJob job = ChainJob(whole.merged_path, shards);
  if (resubmit) {
    // The look's own limits, as the decide job would ask (the script's are the chain's bound).
    const std::string limits =
        LookLimits(job, CurrentLook(whole, MergedLookRows(whole)), whole.cells);
    const std::string ids = SubmitLook(job, lacking, limits, 0);
    std::cout << "resubmitted: " << ids << "\n";
    return 1;
  }
  std::cout << "\nthe chain stopped at a look of " << look << " trials; "
            << (lacking.empty() ? "its shards are complete: decide it" : "finish it")
            << " and go on with:\n  "
            << ShellCommand({tool, "missing", config, "--shards", std::to_string(shards)})
            << (out.empty() ? "" : " --out " + ShellQuote(out)) << " --resubmit\n";
  return 1;
}

}  // namespace pmoe
