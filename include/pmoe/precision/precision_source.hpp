// A precision target as a work source ([precision] in the config): the sweep's cells grouped
// into targets (precision_layout.hpp), each run look by look until its interval excludes the
// threshold or its budget is spent (precision_target.hpp). Every look decides from the rows it
// planned alone, so a resumed run replays the finished looks from the stored rows, and the rows
// held at the end are those of a fixed-size run of the same per-cell sizes. Targets go to shards
// in turn (target i to shard i mod K + 1): a shard owns whole targets, as the adaptive search's
// shards own whole series.
#pragma once

#include <string>
#include <vector>

#include "pmoe/precision/precision_config.hpp"
#include "pmoe/precision/precision_layout.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/work_source.hpp"

namespace pmoe {

// A budget in CPU-hours as trials: hours / the cost model's mean seconds per trial over the cells
// the targets read (EstimateTrialSeconds, a pure function of each cell's spec, so every run of
// one build converts alike). ConfigError (naming `path`) when the cells form no target.
int BudgetFromHours(const std::vector<Cell>& cells, const PrecisionConfig& config,
                    const std::string& path);

class PrecisionSource : public WorkSource {
 public:
  // Throws ConfigError (naming `path`) when the cells cannot form the config's targets.
  PrecisionSource(const std::vector<Cell>& cells, const PrecisionConfig& config,
                  const ShardSpec& shard, const std::string& path);

  std::vector<WorkItem> NextRound(const StoredRows& stored) override;
  std::string Describe() const override;
  Bound MostWork() const override;                 // every target's budget, at its costliest cell
  std::string RoundNote() const override;          // "look 3: 1 of 2 targets still running"
  std::string Summary() const override;            // per target: its looks and verdict
  void Annotate(ResultMeta& meta) const override;  // every target's looks (precision_looks)

  struct Target {
    PrecisionGroup group;
    PrecisionTarget target;
  };
  const std::vector<Target>& targets() const { return targets_; }

 private:
  double ValueOf(const TrialRow& row) const;
  std::string What() const;

  const std::vector<Cell>& cells_;
  PrecisionConfig config_;
  std::vector<Target> targets_;
};

}  // namespace pmoe
