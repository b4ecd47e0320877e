// A sweep as fixed before anything runs: its config, cells, row schema, identity and paths.
#pragma once

#include <string>
#include <vector>

#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/sweep/store/sweep_identity.hpp"

namespace pmoe {

// Everything fixed before anything runs. Building it validates the whole config.
struct SweepSetup {
  SweepConfig config;
  std::vector<Cell> cells;
  ShardSpec shard;
  RowSchema schema;  // the stored columns: core, class counts, the cells' metrics
  SweepIdentity identity;
  std::string merged_path;     // the whole sweep's file: --out, or results/NAME.h5
  std::string out_path;        // this run's file: merged_path, or ShardPath(merged_path, shard)
  std::string journal_path;    // out_path + ".journal"
  std::vector<WorkItem> work;  // a grid's share of this shard, most costly first (adaptive: none)
};

// Throws ConfigError for a bad config or shard; touches no file.
SweepSetup PrepareSweep(const std::string& config_path, const std::string& out,
                        const ShardSpec& shard);

SweepIdentity IdentityOf(const ResultContents& contents);

ResultMeta MetaFor(const SweepSetup& setup, const std::string& command_line);

}  // namespace pmoe
