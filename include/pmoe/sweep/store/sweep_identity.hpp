// What makes two result files, journals or configs "the same sweep": the numerics version and
// build, the master seed, trials per cell, the shard, the stored columns and the canonical keys
// of the cells. Comments, spacing and key order in the
// config do not count; anything that changes what would be computed does.
//
// A row is a pure function of (master seed, cell key, trial index) for one numerics version and
// build, so rows of two identities are comparable when everything but the cells and the trials
// agrees: a config that asks for more trials or more cells than a file holds grows the file's
// sweep (DescribeGrowthProblem), and the rows already held are kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pmoe {

struct SweepIdentity {
  int numerics = 0;   // kNumericsVersion of the tool that computes the trials
  std::string build;  // NumericsBuild() of the tool that computes them
  uint64_t seed = 0;
  int trials = 0;
  std::string shard;                // "I/K" or ""
  std::string columns;              // the rows' schema, RowSchema::Text()
  std::vector<std::string> cells;   // canonical keys, grid order
  std::vector<std::string> labels;  // the same cells' swept values, for messages
  std::string adaptive;             // AdaptiveIdentity() of an adaptive sweep, else ""

  std::string Text() const;  // stored at the head of the journal
  static SweepIdentity FromText(const std::string& text);
};

// "" when a and b are the same sweep (shards ignored when ignore_shard), else what differs, e.g.
// "seed 1 vs 2; 3 cells only in the file (model.l=8, ...)" with a_name/b_name naming the sides.
std::string DescribeDifference(const SweepIdentity& a, const SweepIdentity& b,
                               const std::string& a_name, const std::string& b_name,
                               bool ignore_shard = false);

// "" when `grown` asks for every (cell, trial) that `held` does, and all else agrees (the
// numerics, build, seed, columns, adaptive search and shard): `grown` is `held` with more trials
// per cell and/or more cells. Else what stands in the way, by name, as DescribeDifference says
// it (a fixed parameter changed, cells or trials fewer than held, another seed, ...).
// `held_rows_trials` (issue 44): for a file whose trials per cell were a budget its rounds
// spent only in part (a precision target), the most trials any of its cells holds: the sweep
// then "shrinks" only below that, so it can grow into a fixed grid when no row would be dropped.
std::string DescribeGrowthProblem(const SweepIdentity& held, const SweepIdentity& grown,
                                  const std::string& held_name, const std::string& grown_name,
                                  int held_rows_trials = -1);

// What `grown` adds to `held` ("" when nothing), e.g. "trials 6 -> 20; 4 new cells (N = 960,
// 1920)". Meaningful when DescribeGrowthProblem is "".
// `by_rounds`: a sweep whose work source decides its trials (adaptive, precision), whose
// trials per cell are only the most one cell could get: "trials per cell up to 8400".
std::string DescribeGrowth(const SweepIdentity& held, const SweepIdentity& grown,
                           bool by_rounds = false);

}  // namespace pmoe
