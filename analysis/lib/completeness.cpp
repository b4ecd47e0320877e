// Counting what a set of result files lacks of its sweep: per cell, the sweep's trials per cell
// (a root attribute of each file) against the distinct trials held by any of the files.
#include "pmoe/analysis/completeness.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "pmoe/core/param_table.hpp"
#include "pmoe/core/shell_quote.hpp"
#include "pmoe/io/h5_file.hpp"
#include "pmoe/io/result_checks.hpp"

namespace pmoe {
namespace {

// Precision targets whose last look in a file's precision_looks ("target<TAB>...<TAB>verdict"
// per look, a target's looks consecutive) is still "running".
int RunningTargets(const std::string& looks) {
  std::map<std::string, std::string> last_verdict;
  size_t start = 0;
  while (start < looks.size()) {
    size_t end = looks.find('\n', start);
    if (end == std::string::npos) end = looks.size();
    const std::string line = looks.substr(start, end - start);
    const size_t tab = line.find('\t'), last_tab = line.rfind('\t');
    if (tab != std::string::npos) last_verdict[line.substr(0, tab)] = line.substr(last_tab + 1);
    start = end + 1;
  }
  return static_cast<int>(std::count_if(last_verdict.begin(), last_verdict.end(),
                                        [](const auto& t) { return t.second == "running"; }));
}

}  // namespace

std::string DescribeMissingTrials(const Results& results) {
  int expected = 0;
  std::set<std::string> configs;
  std::set<int64_t> shard_counts;
  int searching = 0, adaptive_files = 0, running_targets = 0;
  for (const std::string& path : results.files) {
    const H5File file = H5File::OpenReadOnly(path);
    // An adaptive sweep holds the trials its search chose, not cells x trials: it is unfinished
    // only while a series is still searching (a line of adaptive_series in state "running").
    if (const auto series = file.StringAttribute("/", "adaptive_series"); series) {
      ++adaptive_files;
      for (size_t at = series->find("\trunning\t"); at != std::string::npos;
           at = series->find("\trunning\t", at + 1))
        ++searching;
      configs.insert(file.StringAttribute("/", "config_path").value_or("CONFIG.ini"));
      continue;
    }
    // A precision sweep holds the trials its targets' looks asked for: it is unfinished only
    // while a target's last look is still "running".
    if (file.StringAttribute("/", "precision")) {
      running_targets += RunningTargets(file.StringAttribute("/", "precision_looks").value_or(""));
      configs.insert(file.StringAttribute("/", "config_path").value_or("CONFIG.ini"));
      continue;
    }
    expected =
        std::max(expected, static_cast<int>(file.IntAttribute("/", "trials_per_cell").value_or(0)));
    configs.insert(file.StringAttribute("/", "config_path").value_or("CONFIG.ini"));
    const std::string shard = file.StringAttribute("/", "shard").value_or("");
    if (const int64_t count = ShardAttributeCount(path, shard); count > 0)
      shard_counts.insert(count);
  }
  if (adaptive_files > 0 && searching > 0)
    return "warning: " + std::to_string(searching) +
           " series of the adaptive search are still "
           "searching (an unfinished run or shard?), so their N* are less precise than asked; "
           "running the sweep again (`" +
           HintCommand({"pmoe-sweep", "run", *configs.begin()}) + "`) finishes them.";
  if (running_targets > 0)
    return "warning: " + std::to_string(running_targets) +
           " precision targets are still running (an unfinished run or shard?), so their "
           "intervals are wider than their rule needs; running the sweep again (`" +
           HintCommand({"pmoe-sweep", "run", *configs.begin()}) + "`) finishes them.";
  if (expected == 0) return "";
  std::vector<int> held(results.cells.size(), 0);
  for (const TrialRecord& t : results.trials) ++held[t.cell];
  std::map<double, int> missing_at_n;  // N -> trials missing
  int missing = 0;
  for (size_t c = 0; c < results.cells.size(); ++c)
    if (held[c] < expected) {
      missing += expected - held[c];
      missing_at_n[results.cells[c].Number("N")] += expected - held[c];
    }
  if (missing == 0) return "";
  std::string at;
  for (const auto& [n, count] : missing_at_n)
    at += (at.empty() ? "" : ", ") + std::string("N=") + FormatDouble(n) + ": " +
          std::to_string(count);
  const std::string config = *configs.begin();
  const std::string finish =
      shard_counts.size() == 1 ? "`" +
                                     HintCommand({"pmoe-sweep", "missing", config, "--shards",
                                                  std::to_string(*shard_counts.begin())}) +
                                     "` says which shards and how to finish"
                               : "running the sweep again (`" +
                                     HintCommand({"pmoe-sweep", "run", config}) + "`) finishes it";
  return "warning: these files lack " + std::to_string(missing) + " of their sweep's " +
         std::to_string(expected * static_cast<int>(results.cells.size())) +
         " trials (an unfinished run or shard?), so N*, exponents and rates below are computed "
         "without them; trials missing at " +
         at + ". " + finish + ".";
}

}  // namespace pmoe
