// The looks of precision targets spread over the K shards of a job array (issue 41): every shard
// of a look computes the look's (cell, trial) pairs from the rows of the looks before it (the
// same replay a resumed run does) and takes its cost-balanced share of them (ShardOf), so that
// the shards of a look are disjoint, cover it and agree without talking to each other. The rows
// held at the end are those of a one-machine run of the same config: a look is decided from the
// rows it planned alone, never from which shard computed them.
#pragma once

#include <string>
#include <vector>

#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_source.hpp"

namespace pmoe {

// The pairs of the look that `base` (the rows of the looks before it) leads to, that `base`
// lacks: the whole sweep's source replayed over `base`. Empty once every target is decided or
// out of budget. `whole` is a setup without a shard.
std::vector<WorkItem> CurrentLook(const SweepSetup& whole, const StoredRows& base);

// Shard `index` (1-based) of `count`'s part of a look.
std::vector<WorkItem> LookShare(const std::vector<WorkItem>& look, int index, int count);

// "<out without .h5>.shards/look-shard-I-of-K.h5": shard I's rows over all looks (a name of its
// own: a `run --shard I/K` file owns whole targets instead).
std::string LookShardPath(const std::string& merged_out, int index, int count);

// A source that hands out one fixed share (a shard's part of one look) and nothing after it.
class ShareSource : public WorkSource {
 public:
  ShareSource(std::vector<WorkItem> share, std::string what);
  std::vector<WorkItem> NextRound(const StoredRows& stored) override;
  std::optional<size_t> Planned() const override { return share_.size(); }
  Bound MostWork() const override;
  std::string Describe() const override { return what_; }

 private:
  std::vector<WorkItem> share_;
  std::string what_;
};

// What each array task of a look chain gets, by the static cost model. The first look is exact
// (its pairs are known before anything runs: `base` are the rows already held); a later look's
// new trials (LookTotals, summed over the targets) go K ways, each at the costliest cell of its
// target, since the allocation that places them is decided from rows not yet computed.
struct LookShardEstimate {
  std::vector<size_t> look_trials;   // new trials per look, all targets (a bound after the first)
  size_t largest_share = 0;          // trials of the largest share of any look
  double slowest_share_seconds = 0;  // core-seconds of the costliest share of any look
  double total_core_seconds = 0;     // every look, every shard
  size_t test_sets = 0;       // test sets held (read by 2+ trials of a share), the most of any
  double test_set_bytes = 0;  // their bytes
};
LookShardEstimate EstimateLookShards(const SweepSetup& whole, const StoredRows& base, int count);

// Adds one look whose pairs are known (`look`) to `e`: its shares exactly, by the static model.
// The decide job asks each look's array for what its largest share needs, from this.
void AddLook(const std::vector<WorkItem>& look, const std::vector<Cell>& cells, int count,
             LookShardEstimate& e);

}  // namespace pmoe
