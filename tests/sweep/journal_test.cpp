// The journal keeps every acknowledged batch and drops only a torn or corrupt tail; rows
// round-trip bit for bit; one writer at a time.
#include "pmoe/sweep/store/journal.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

// Rows of a sweep whose families record one rate and a count, over two classes.
const RowSchema& Schema() {
  static const RowSchema schema({{"router_hit", ColumnType::kF64, "a rate", true},
                                 {"router_steps", ColumnType::kI64, "a count"}},
                                /*classes=*/2);
  return schema;
}

std::vector<TrialRow> SomeRows(int first, int count) {
  std::vector<TrialRow> rows(count);
  for (int i = 0; i < count; ++i) {
    rows[i].cell_id = 0xfedcba9876543210ULL + i;
    rows[i].result.trial = first + i;
    rows[i].result.test_acc = 0.5 + i / 100.0;
    if (i % 3) rows[i].result.metrics.Set("router_hit", 0.25 * i);  // else absent: NaN
    rows[i].result.metrics.Set("router_steps", 1000 + i);
    rows[i].result.class_counts = {i, 2 * i};
    rows[i].result.stop = i % 2 ? StopReason::kDiverged : StopReason::kStepCap;
    rows[i].result.status = i % 2 ? TrialStatus::kDiverged : TrialStatus::kOk;
    rows[i].result.message = i % 2 ? "loss not finite at step " + std::to_string(i) : "";
    rows[i].result.steps = 1L << 40;
  }
  return rows;
}

void RequireSame(const std::vector<TrialRow>& a, const std::vector<TrialRow>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    REQUIRE(Schema().SameOutcome(a[i], b[i]));
    REQUIRE(a[i].result.metrics.Has("router_hit") == b[i].result.metrics.Has("router_hit"));
    REQUIRE(a[i].result.class_counts == b[i].result.class_counts);
  }
}

}  // namespace

TEST_CASE("Rows round-trip through the journal bit for bit", "[journal]") {
  const std::string path = test::FreshDirectory("journal_roundtrip") + "/j";
  {
    Journal journal(path, "id", Schema());
    CHECK(journal.recovered().empty());
    journal.Append(SomeRows(0, 5));
    journal.Append(SomeRows(5, 3));
  }
  Journal again(path, "id", Schema());
  CHECK(again.matches());
  CHECK(again.dropped_bytes() == 0);
  std::vector<TrialRow> expected = SomeRows(0, 5), more = SomeRows(5, 3);
  expected.insert(expected.end(), more.begin(), more.end());
  RequireSame(again.recovered(), expected);
}

TEST_CASE("A torn or corrupt last record is dropped and appending goes on", "[journal]") {
  const std::string path = test::FreshDirectory("journal_torn") + "/j";
  {
    Journal journal(path, "id", Schema());
    journal.Append(SomeRows(0, 4));
    journal.Append(SomeRows(4, 4));
  }
  const auto full = std::filesystem::file_size(path);
  SECTION("torn: the last bytes never reached the disk") {
    std::filesystem::resize_file(path, full - 7);
  }
  SECTION("corrupt: a byte of the last record changed") {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(full - 20));
    f.put('\x5a');
  }
  {
    Journal journal(path, "id", Schema());
    CHECK(journal.dropped_bytes() > 0);
    RequireSame(journal.recovered(), SomeRows(0, 4));
    journal.Append(SomeRows(8, 2));
  }
  Journal journal(path, "id", Schema());
  CHECK(journal.dropped_bytes() == 0);
  std::vector<TrialRow> expected = SomeRows(0, 4), more = SomeRows(8, 2);
  expected.insert(expected.end(), more.begin(), more.end());
  RequireSame(journal.recovered(), expected);
}

TEST_CASE("A journal of another sweep yields no rows until reset", "[journal]") {
  const std::string path = test::FreshDirectory("journal_identity") + "/j";
  {
    Journal journal(path, "sweep A", Schema());
    journal.Append(SomeRows(0, 3));
  }
  Journal other(path, "sweep B", Schema());
  CHECK_FALSE(other.matches());
  CHECK(other.stored_identity() == "sweep A");
  CHECK(other.recovered().empty());
  other.Reset();
  CHECK(other.matches());
}

TEST_CASE("Only one process writes a journal at a time", "[journal]") {
  const std::string path = test::FreshDirectory("journal_lock") + "/j";
  Journal first(path, "id", Schema());
  CHECK_THROWS_WITH(Journal(path, "id", Schema()), Catch::Matchers::Contains("another pmoe-sweep"));
}

TEST_CASE("A journal written with other columns is refused by name, never decoded", "[journal]") {
  const std::string dir = test::FreshDirectory("journal_columns");
  const std::string config = dir + "/c.ini";
  std::ofstream(config) << "trials = 2\nN = 40\nN_test = 50\n[model]\nepochs = 2\n";
  SweepSetup setup = PrepareSweep(config, dir + "/r.h5", ShardSpec{});
  {
    Journal journal(setup.journal_path, setup.identity.Text(), setup.schema);
    std::vector<TrialRow> rows = SomeRows(0, 2);
    for (TrialRow& r : rows) r.cell_id = setup.cells[0].id;  // rows of no cell are refused
    journal.Append(rows);
  }
  REQUIRE(HeldRows(setup).size() == 2);
  // The same sweep read by a build whose families record one metric more: the bytes would
  // decode shifted, so the identity (which lists the columns) refuses them.
  SweepSetup other = setup;
  std::vector<MetricInfo> metrics;
  for (const Column& c : setup.schema.columns())
    if (c.metric) metrics.push_back({c.name, c.type, c.description, c.rate});
  metrics.push_back({"extra_rate", ColumnType::kF64, "another family's metric", true});
  other.schema = RowSchema(metrics, 2);
  other.identity.columns = other.schema.Text();
  CHECK_THROWS_WITH(HeldRows(other), Catch::Matchers::Contains("trial columns differ") &&
                                         Catch::Matchers::Contains("extra_rate:f64"));
}

}  // namespace pmoe
