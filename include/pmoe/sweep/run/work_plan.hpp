// The work of a sweep: one item per (cell, trial), costly first so the cores stay busy to the
// end, and its split into cost-balanced shards for cluster job arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/sweep/grid/grid.hpp"

namespace pmoe {

struct WorkItem {
  size_t cell = 0;  // index into the grid's cells
  int trial = 0;
  double cost = 0;  // estimated seconds
};

// Every (cell, trial), most costly first; ties by cell, then trial. Deterministic.
std::vector<WorkItem> PlanWork(const std::vector<Cell>& cells, int trials);

// The items of shard `index` (1-based) of `count`: items go, in PlanWork's order, to the shard
// with the least cost so far (ties to the lower shard), so shards are disjoint, cover
// everything, and do not depend on what has already run.
std::vector<WorkItem> ShardOf(const std::vector<WorkItem>& all, int index, int count);

struct ShardSpec {
  int index = 0;  // 1-based; 0: no sharding
  int count = 0;
  std::string Text() const;  // "2/3", or "" without sharding
};

// Parses "I/K" (1 <= I <= K); throws ConfigError naming --shard.
ShardSpec ParseShard(const std::string& text);

// Parses --shard's value: "I/K", or "auto/K" whose I is the Slurm array task's SLURM_ARRAY_TASK_ID
// (the array is submitted as --array=1-K, so task ids are shard numbers). K is always the user's:
// it is never taken from the array's size, so resubmitting one task (--array=3) runs shard 3/K.
// Throws ConfigError saying what is missing or out of range.
ShardSpec ResolveShard(const std::string& text);

// Where shard I/K of a sweep whose merged file is `merged_out` is written: beside it, in
// "<merged_out without .h5>.shards/shard-I-of-K.h5", so that the shards of one K, of another K
// and the merged file never share a file.
std::string ShardPath(const std::string& merged_out, const ShardSpec& shard);

}  // namespace pmoe
