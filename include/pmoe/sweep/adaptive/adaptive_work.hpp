// The work of an adaptive sweep ([adaptive] in the config): each series (cells equal in every
// parameter but N) searches its own N* with a PsiSearch, round by round. The cells are the
// series times the candidate N values, fixed before anything runs; which (cell, trial) items
// run is decided from the rows already held only, never from timing, so a run is the same for
// any thread count, and a resumed run replays the finished rounds from the stored rows. A
// series' rounds take trial indices 0, 1, 2, ... in turn, each at the N of its round.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "pmoe/sweep/adaptive/psi_search.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/run/work_plan.hpp"

namespace pmoe {

struct SeriesOutcome {
  std::string label;  // the series' swept values, N aside
  SearchState state = SearchState::kRunning;
  int rounds = 0, trials = 0;
  ThresholdEstimate estimate;
};

class AdaptiveWork {
 public:
  // The success of trial `trial` of cell `cell` (an index into the cells) when it is held.
  using Lookup = std::function<std::optional<bool>(size_t cell, int trial)>;

  // Throws ConfigError when a cell's N is not one of the candidates. Series go to shards in
  // turn (series i to shard i mod K + 1), so a shard owns whole series.
  AdaptiveWork(const std::vector<Cell>& cells, const AdaptiveSettings& settings,
               const ShardSpec& shard);

  // The items of the current round of every running series of this shard that are not held,
  // after advancing each series past every round the held rows complete. Empty: every series
  // of the shard has stopped.
  std::vector<WorkItem> Next(const Lookup& held);

  std::vector<SeriesOutcome> Outcomes() const;
  size_t series() const { return series_.size(); }

 private:
  struct Series {
    std::string label;
    std::vector<size_t> cells;  // per candidate
    PsiSearch search;           // knows each round's trial indices (each index once per series)
    int rounds = 0;
  };
  std::vector<Series> series_;
};

// A Lookup over stored outcomes: success by (cell id, trial), for the cells of `cells`.
// Both arguments must outlive the lookup.
AdaptiveWork::Lookup SuccessLookup(const std::vector<Cell>& cells,
                                   const std::map<std::pair<uint64_t, int>, bool>& success);

// A series label: the cell's label without its N.
std::string SeriesLabel(const Cell& cell);

// The outcomes as the result file stores them (ResultMeta::adaptive_series), one line each,
// and back. ParseSeriesTable skips lines it cannot read.
std::string SeriesTable(const std::vector<SeriesOutcome>& outcomes);
std::vector<SeriesOutcome> ParseSeriesTable(const std::string& text);

// An aligned table: series, state, rounds, trials, N* and its 95 % interval.
void PrintSeriesOutcomes(const std::vector<SeriesOutcome>& outcomes, std::ostream& out);

}  // namespace pmoe
