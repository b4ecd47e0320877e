// Issue 41: a precision config's looks spread over K shards. What each array task is asked for
// is the largest share of any look (a K-way split), not a whole target's budget; the shares of
// a look are disjoint and cover it.
#include "pmoe/precision/look_shards.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <set>

#include "pmoe/stats/sequential_interval.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

// One target (one group: no swept parameter but N, the kind and the axis): 12 separate cells
// and 4 CNN cells, each CNN cell standing on all three curves (16 sets of rows).
SweepSetup OneTarget(const std::string& dir) {
  const std::string path = dir + "/one.ini";
  std::ofstream(path) << "name = one\nseed = 7\nN_test = 300\n[model]\nepochs = 20\nm = 20\n"
                         "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 30,60,120,240\n"
                         "[precision]\ntarget = ratio_exponent\nover = l\nthreshold = 0\n"
                         "budget = 120\nstart = 2\nlooks = 3\nbootstrap = 200\n";
  return PrepareSweep(path, dir + "/one.h5", {});
}

}  // namespace

TEST_CASE("A one-target config's looks go K ways: per-shard time and test sets of a share",
          "[looks][slurm]") {
  const SweepSetup whole = OneTarget(test::FreshDirectory("look_shards"));
  const std::vector<WorkItem> first = CurrentLook(whole, StoredRows());
  REQUIRE(first.size() == 32);  // 2 trials of each of 16 sets of rows
  REQUIRE(LookTotals(32, 120, 3) == std::vector<int>{32, 62, 120});
  double dearest = 0, first_cost = 0;
  for (const Cell& c : whole.cells) dearest = std::max(dearest, EstimateTrialSeconds(c.spec));
  for (const WorkItem& item : first) first_cost += item.cost;

  const LookShardEstimate e = EstimateLookShards(whole, StoredRows(), 3);
  CHECK(e.look_trials == std::vector<size_t>{32, 30, 58});
  CHECK(e.largest_share == 20);  // the last look's 58 new trials, 3 ways: ceil(58 / 3)
  // Every later trial at the costliest cell: the allocation places them from rows to come.
  CHECK(e.slowest_share_seconds == Approx(20 * dearest));
  CHECK(e.total_core_seconds == Approx(first_cost + (30 + 58) * dearest));
  // What the target-per-shard split asked for: the whole budget on one task.
  CHECK(e.slowest_share_seconds < 120 * dearest / 5);
  // The test sets the cache holds for a share: those two of its trials read, at most one per
  // two trials of the last look's share (the first look's shares read trials 0 and 1 only).
  double largest_set = 0;
  for (const Cell& c : whole.cells)
    largest_set = std::max(largest_set, EstimateTestSetBytes(c.spec));
  CHECK(e.test_sets == 10);
  CHECK(e.test_set_bytes == Approx(10 * largest_set));
  const LookShardEstimate first_only = EstimateLookShards(whole, StoredRows(), 16);
  CHECK(first_only.look_trials.front() == 32);

  // K = 1: one share per look, the whole look.
  const LookShardEstimate one = EstimateLookShards(whole, StoredRows(), 1);
  CHECK(one.largest_share == 58);
  CHECK(one.total_core_seconds == Approx(e.total_core_seconds));
}

TEST_CASE("The shares of a look are disjoint, cover it and do not depend on the shard asking",
          "[looks][slurm]") {
  const SweepSetup whole = OneTarget(test::FreshDirectory("look_shares"));
  const std::vector<WorkItem> look = CurrentLook(whole, StoredRows());
  std::set<std::pair<size_t, int>> seen;
  size_t count = 0;
  for (int s = 1; s <= 3; ++s) {
    const std::vector<WorkItem> share = LookShare(look, s, 3);
    CHECK(share.size() >= 10);  // cost-balanced: no shard idle
    CHECK(share.size() <= 12);
    for (const WorkItem& item : share) seen.insert({item.cell, item.trial});
    count += share.size();
    CHECK(LookShare(look, s, 3).size() == share.size());
  }
  CHECK(count == look.size());
  CHECK(seen.size() == look.size());
  CHECK(LookShardPath("results/x.h5", 2, 3) == "results/x.shards/look-shard-2-of-3.h5");
}

}  // namespace pmoe
