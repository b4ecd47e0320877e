// `pmoe-sweep status FILE.h5`: what a result file holds, what its sweep still lacks, and what a
// journal beside it holds that the file does not yet (a run in progress or killed).
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "commands.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/journal.hpp"
#include "pmoe/sweep/result_file.hpp"
#include "pmoe/sweep/sweep_runner.hpp"

namespace pmoe {

int RunStatusCommand(const std::vector<std::string>& args, const std::string& command_line) {
  (void)command_line;
  if (args.size() != 1 || args[0].rfind("--", 0) == 0)
    UnexpectedArgument(args.empty() ? "" : args[0], "pmoe-sweep status FILE.h5");
  const std::string& path = args[0];
  const ResultContents contents = ReadResultFile(path);
  const ResultMeta& m = contents.meta;
  const SweepConfig config = ParseSweepConfig(m.config_path, m.config);
  const std::vector<Cell> cells = ExpandGrid(config);
  ShardSpec shard;
  if (!m.shard.empty()) shard = ParseShard(m.shard);
  const std::vector<WorkItem> work = ShardOf(PlanWork(cells, config.trials), shard.index,
                                             shard.count);

  std::set<std::pair<uint64_t, int>> held;
  int by_status[4] = {0, 0, 0, 0}, successes = 0;
  for (const TrialRow& r : contents.rows) {
    held.insert({r.cell_id, r.result.trial});
    ++by_status[static_cast<int>(r.result.status) % 4];
    successes += r.result.success;
  }
  std::map<size_t, int> lacking;  // cell index -> trials missing
  for (const WorkItem& item : work)
    if (!held.count({cells[item.cell].id, item.trial})) ++lacking[item.cell];

  std::cout << path << ": sweep " << m.name << " (" << m.config_path << "), seed "
            << m.master_seed << (m.shard.empty() ? "" : ", shard " + m.shard) << "\n"
            << "  written " << m.created_utc << " by pmoe-sweep " << m.tool_version << " ("
            << m.git_describe << ")\n"
            << "  " << cells.size() << " cells x " << config.trials << " trials; this file "
            << "holds " << contents.rows.size() << " of " << work.size() << " ("
            << by_status[0] << " ok, " << by_status[1] << " diverged, " << by_status[2]
            << " infeasible, " << by_status[3] << " error; " << successes << " successes)\n";
  const SweepIdentity identity = IdentityOf(contents);
  const JournalContents journal =
      PeekJournal(path + ".journal", identity.Text(), *contents.schema,
                  LimitsOf(identity.cells, identity.trials));
  if (const std::string damage = DescribeDamage(path + ".journal", journal.damage);
      !damage.empty())
    std::cout << "  warning: " << damage << "\n";
  size_t pending = 0;
  for (const TrialRow& r : journal.rows) pending += !held.count({r.cell_id, r.result.trial});
  if (journal.has_identity)
    std::cout << "  journal " << path << ".journal: " << pending << " finished trials not yet "
              << "in the file (a run is going on or was stopped; running again folds them in)\n";
  if (lacking.empty()) {
    std::cout << "  complete\n";
    return 0;
  }
  std::cout << "  " << lacking.size() << " cells incomplete:\n";
  int shown = 0;
  for (const auto& [cell, count] : lacking) {
    if (++shown > 20) {
      std::cout << "    ... " << lacking.size() - 20 << " more\n";
      break;
    }
    std::cout << "    " << cells[cell].label << ": " << count << " trials missing\n";
  }
  return 0;
}

}  // namespace pmoe
