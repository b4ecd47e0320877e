// A look's pairs, their split over the shards of a job array, and what each shard is asked for.
#include "pmoe/precision/look_shards.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "pmoe/core/param_table.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/precision/precision_source.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"

namespace pmoe {
namespace {

// The test sets a share holds: the cache keeps a set (one per data parameters, N_test and trial
// index) only while another trial of the round is still to ask for it, so only the sets that
// two or more of the share's trials read are held; a set read once lives as long as its trial.
std::pair<size_t, double> TestSetsOf(const std::vector<WorkItem>& share,
                                     const std::vector<Cell>& cells) {
  std::map<std::tuple<std::string, int, int>, std::pair<int, double>> uses;
  for (const WorkItem& item : share) {
    const TrialSpec& spec = cells[item.cell].spec;
    auto& use = uses[{CanonicalKey(spec, "data."), spec.N_test, item.trial}];
    ++use.first;
    use.second = EstimateTestSetBytes(spec);
  }
  size_t held = 0;
  double bytes = 0;
  for (const auto& [key, use] : uses)
    if (use.first >= 2) ++held, bytes += use.second;
  return {held, bytes};
}

double CostOf(const std::vector<WorkItem>& items) {
  double cost = 0;
  for (const WorkItem& item : items) cost += item.cost;
  return cost;
}

}  // namespace

void AddLook(const std::vector<WorkItem>& look, const std::vector<Cell>& cells, int count,
             LookShardEstimate& e) {
  e.look_trials.push_back(look.size());
  e.total_core_seconds += CostOf(look);
  for (int s = 1; s <= count; ++s) {
    const std::vector<WorkItem> share = LookShare(look, s, count);
    e.largest_share = std::max(e.largest_share, share.size());
    e.slowest_share_seconds = std::max(e.slowest_share_seconds, CostOf(share));
    const auto [sets, bytes] = TestSetsOf(share, cells);
    if (bytes > e.test_set_bytes) e.test_sets = sets, e.test_set_bytes = bytes;
  }
}

std::vector<WorkItem> CurrentLook(const SweepSetup& whole, const StoredRows& base) {
  const std::unique_ptr<WorkSource> source = MakeWorkSource(whole);
  std::vector<WorkItem> look;
  for (const WorkItem& item : source->NextRound(base))
    if (!base.Has(whole.cells[item.cell].id, item.trial)) look.push_back(item);
  return look;
}

std::vector<WorkItem> LookShare(const std::vector<WorkItem>& look, int index, int count) {
  return ShardOf(look, index, count);
}

std::string LookShardPath(const std::string& merged_out, int index, int count) {
  const std::string path = ShardPath(merged_out, {index, count});
  const size_t slash = path.rfind('/');
  return path.substr(0, slash + 1) + "look-" + path.substr(slash + 1);
}

ShareSource::ShareSource(std::vector<WorkItem> share, std::string what)
    : share_(std::move(share)), what_(std::move(what)) {}

std::vector<WorkItem> ShareSource::NextRound(const StoredRows& /*stored*/) {
  return share_;  // the runner drops what is stored: after one round, nothing is left
}

WorkSource::Bound ShareSource::MostWork() const {
  return {share_.size(), CostOf(share_), "this shard's share of the look"};
}

LookShardEstimate EstimateLookShards(const SweepSetup& whole, const StoredRows& base, int count) {
  LookShardEstimate e;
  AddLook(CurrentLook(whole, base), whole.cells, count, e);
  // The looks after it: how many trials each adds is fixed (LookTotals); where they go is not.
  PrecisionSource source(whole.cells, *PrecisionOf(whole.config), {}, whole.config.path);
  source.NextRound(base);
  double largest_set = 0;
  for (const Cell& c : whole.cells)
    largest_set = std::max(largest_set, EstimateTestSetBytes(c.spec));
  for (size_t k = 1;; ++k) {
    size_t trials = 0;
    double cost = 0, worst = 0;
    for (const PrecisionSource::Target& t : source.targets()) {
      const size_t at = t.target.looks().size() + k;  // k looks after the current one
      if (t.target.verdict() != Verdict::kRunning || at >= t.target.totals().size()) continue;
      double dearest = 0;
      for (size_t c : t.group.cells)
        dearest = std::max(dearest, EstimateTrialSeconds(whole.cells[c].spec));
      const size_t added = static_cast<size_t>(t.target.totals()[at] - t.target.totals()[at - 1]);
      trials += added;
      cost += dearest * static_cast<double>(added);
      worst = std::max(worst, dearest);
    }
    if (trials == 0) break;
    const size_t share = (trials + static_cast<size_t>(count) - 1) / static_cast<size_t>(count);
    e.look_trials.push_back(trials);
    e.total_core_seconds += cost;
    e.largest_share = std::max(e.largest_share, share);
    e.slowest_share_seconds = std::max(e.slowest_share_seconds, worst * static_cast<double>(share));
    // Where the trials go is not known yet: at most one held set per two trials of the share.
    if (share / 2 * largest_set > e.test_set_bytes)
      e.test_sets = share / 2, e.test_set_bytes = static_cast<double>(share / 2) * largest_set;
  }
  return e;
}

}  // namespace pmoe
