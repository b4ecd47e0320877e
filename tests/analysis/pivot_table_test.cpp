// The pivot table on hand-made results whose means and sds are worked out by hand: cells land in
// the right row and column, failed trials are left out (and said so), readable labels, and bad
// arguments are refused by name.
#include "pmoe/analysis/pivot_table.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

// Two settings (sigma_p 1, 2; gamma 0.5..3) x two models; the switch cells declare an entropy.
Results HandMade() {
  Results r;
  r.metrics.push_back({"dispatch_entropy", "entropy", false});
  auto cell = [&](const std::string& sigma, const std::string& kind) {
    CellRecord c;
    c.params = {{"N", "100"},
                {"data.gamma_lo", "0.5"},
                {"data.gamma_hi", "3"},
                {"data.sigma_p", sigma},
                {"model.kind", kind}};
    r.cells.push_back(c);
    return r.cells.size() - 1;
  };
  auto trial = [&](size_t c, int status, double acc, double entropy, bool success) {
    TrialRecord t;
    t.cell = c;
    t.trial = static_cast<int>(r.trials.size());
    t.status = status;
    t.test_acc = acc;
    t.success = success;
    t.metrics = {entropy};
    r.trials.push_back(t);
  };
  const size_t s1 = cell("1", "switch"), c1 = cell("1", "single");
  const size_t s2 = cell("2", "switch"), c2 = cell("2", "single");
  // switch, sigma_p 1: accuracies 0.9, 0.8, 1.0 (mean 0.9, sd 0.1), entropies 0.5, 1, 1.5 (mean
  // 1, sd 0.5); a fourth trial failed (status 3, error) and counts for neither.
  trial(s1, 0, 0.9, 0.5, false);
  trial(s1, 0, 0.8, 1.0, false);
  trial(s1, 0, 1.0, 1.5, true);
  trial(s1, 3, 0.0, NAN, false);
  // single, sigma_p 1: 0.6 and 0.7 (mean 0.65, sd 0.0707...), no entropy.
  trial(c1, 0, 0.6, NAN, false);
  trial(c1, 0, 0.7, NAN, false);
  trial(s2, 0, 0.5, 1.2, false);  // one trial: sd 0
  trial(c2, 0, 0.4, NAN, false);
  trial(c2, 0, 0.4, NAN, false);
  return r;
}

}  // namespace

TEST_CASE("The pivot table's cells hold the hand-computed mean, sd and counts",
          "[analysis][table]") {
  PivotSpec spec;
  spec.metrics = {"test_accuracy%", "dispatch_entropy", "success"};
  const Pivot p = BuildPivot(HandMade(), spec);
  // Defaults: model.kind across, sigma_p down (N and gamma do not vary).
  REQUIRE(p.row_params == std::vector<std::string>{"data.sigma_p"});
  REQUIRE(p.col_params == std::vector<std::string>{"model.kind"});
  CHECK(p.row_labels == std::vector<std::string>{"sigma_p 1", "sigma_p 2"});
  CHECK(p.col_labels == std::vector<std::string>{"switch", "single"});
  const PivotCell& s1 = p.cells[0][0];
  CHECK(s1.trials == 4);
  CHECK(s1.metrics[0].count == 3);
  CHECK(s1.metrics[0].mean == Approx(90.0));
  CHECK(s1.metrics[0].sd == Approx(10.0));
  CHECK(s1.metrics[1].mean == Approx(1.0));
  CHECK(s1.metrics[1].sd == Approx(0.5));
  CHECK(s1.metrics[2].count == 4);  // success over every trial: 1 of 4
  CHECK(s1.metrics[2].mean == Approx(0.25));
  const PivotCell& c1 = p.cells[0][1];
  CHECK(c1.metrics[0].mean == Approx(65.0));
  CHECK(c1.metrics[0].sd == Approx(std::sqrt(0.005) * 100));
  CHECK(c1.metrics[1].count == 0);  // the single model has no entropy
  CHECK(p.cells[1][0].metrics[0].sd == 0);
  CHECK(p.cells[1][1].metrics[0].mean == Approx(40.0));

  std::ostringstream aligned;
  PivotAlignedTable(p).Print(aligned, Table::Format::kAligned);
  INFO(aligned.str());
  // 4 significant digits of the largest mean: 90.00 -> 2 decimals, entropy 1.200 -> 3.
  CHECK_THAT(aligned.str(), Contains("90.00 ± 10.00 (3/4)") && Contains("65.00 ± 7.07 (2)") &&
                                Contains("1.000 ± 0.500 (3/4)") && Contains("test_acc (%)"));
  std::ostringstream csv;
  PivotTidyTable(p).Print(csv, Table::Format::kCsv);
  CHECK_THAT(csv.str(), Contains("data.sigma_p,model.kind,metric,mean,sd,n,trials\n") &&
                            Contains("1,switch,dispatch_entropy,1,0.5,3,4\n") &&
                            Contains("1,single,dispatch_entropy,,,0,2\n"));
}

TEST_CASE("The pivot table labels a _hi parameter with its fixed _lo as a range",
          "[analysis][table]") {
  Results r = HandMade();
  r.cells[2].params["data.gamma_hi"] = "2";  // sigma_p 2 switch: make gamma vary
  r.cells[3].params["data.gamma_hi"] = "2";
  PivotSpec spec;
  spec.rows = {"gamma_hi", "sigma_p"};
  spec.cols = {"kind"};
  const Pivot p = BuildPivot(r, spec);
  CHECK(p.row_labels ==
        std::vector<std::string>{"gamma 0.5..3, sigma_p 1", "gamma 0.5..2, sigma_p 2"});
  // Filtered to one value, the other row goes.
  spec.where = {{"sigma_p", "2.0"}};
  CHECK(BuildPivot(r, spec).row_labels == std::vector<std::string>{"gamma 0.5..2, sigma_p 2"});
}

TEST_CASE("The pivot table refuses bad arguments by name", "[analysis][table]") {
  const Results r = HandMade();
  auto message = [&](PivotSpec spec) {
    try {
      BuildPivot(r, spec);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  PivotSpec unknown;
  unknown.rows = {"width"};
  CHECK_THAT(message(unknown), Contains("unknown parameter \"width\"") && Contains("data.sigma_p"));
  PivotSpec metric;
  metric.metrics = {"entropy"};
  CHECK_THAT(message(metric), Contains("\"entropy\"") && Contains("dispatch_entropy"));
  PivotSpec twice;
  twice.rows = {"kind"};
  twice.cols = {"model.kind"};
  CHECK_THAT(message(twice), Contains("model.kind is named twice"));
  PivotSpec pooled;  // sigma_p varies but is placed nowhere: two cells per table cell
  pooled.rows = {"kind"};
  pooled.cols = {"N"};
  CHECK_THAT(message(pooled), Contains("differ in data.sigma_p"));
  PivotSpec where;
  where.where = {{"sigma_p", "7"}};
  CHECK_THAT(message(where), Contains("data.sigma_p") && Contains("(1, 2)"));
}

}  // namespace pmoe
