// Merging shards as a value (MergeShards, merge.hpp): the rows one machine would have written,
// and the refusals, without the command line.
#include "pmoe/sweep/run/merge.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "support/run_command.hpp"
#include "sweep_test_support.hpp"

namespace pmoe {
namespace {

// Runs `config` (its shard `shard`, or whole) quietly on one core; returns the file written.
std::string RunQuietly(const std::string& config, const std::string& out, ShardSpec shard) {
  const SweepSetup setup = PrepareSweep(config, out, shard);
  RunOptions options;
  options.threads = 1;
  options.progress = false;
  std::ostringstream log;
  RunSweep(setup, options, log);
  return setup.out_path;
}

}  // namespace

TEST_CASE("Merged shards are the single machine's rows, and gaps and repeats are refused",
          "[sweep][merge]") {
  using Catch::Matchers::Contains;
  const std::string dir = test::FreshDirectory("merge_value");
  const std::string config = test::WriteQuickSweep(dir, "quick", 2);
  const std::string whole = RunQuietly(config, dir + "/whole.h5", {});
  const std::string one = RunQuietly(config, dir + "/quick.h5", {1, 2});
  const std::string two = RunQuietly(config, dir + "/quick.h5", {2, 2});

  MergeResult merged = MergeShards({one, two});
  CHECK(merged.files == 2);
  CHECK(merged.cells.size() == 8);
  CHECK(merged.rows.size() == 16);
  CHECK(merged.duplicates == 0);
  CHECK(merged.meta.shard.empty());
  CHECK(merged.identity.shard == "1/2");
  WriteMerged(dir + "/merged.h5", std::move(merged), false, "test");
  CHECK(test::CompareResults(dir + "/merged.h5", whole).empty());

  CHECK_THROWS_WITH(MergeShards({one}), Contains("8 trials of the sweep are in none") &&
                                            Contains("(shard 2/2)") &&
                                            Contains("pmoe-sweep missing"));
  CHECK_THROWS_WITH(MergeShards({one, one}), Contains("the same shard given twice"));
  // The whole file and a shard of it hold the shard's rows twice, with one outcome: kept once.
  CHECK(MergeShards({whole, one}).duplicates == 8);
  // Another sweep (another seed) is neither merged nor overwritten without force.
  std::ofstream(dir + "/other.ini") << "seed = 8\ntrials = 1\nN_test = 50\n[grid]\nN = 20, 30\n";
  const std::string other = RunQuietly(dir + "/other.ini", dir + "/o.h5", {});
  CHECK_THROWS_WITH(MergeShards({one, other}), Contains("are not parts of one sweep"));
  CHECK_THROWS_WITH(WriteMerged(other, MergeShards({one, two}), false, "test"),
                    Contains("exists and is not this sweep's file"));
  WriteMerged(other, MergeShards({one, two}), true, "test");
  CHECK(test::CompareResults(other, whole).empty());
}

}  // namespace pmoe
