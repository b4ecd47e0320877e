// Data C with the switch and single families through pmoe-sweep: list metrics (dispatch counts,
// training curves) stored in the journal and the HDF5 file and read back, identical for any
// thread count and across a resume from the journal; h5py reads them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/sweep/store/trial_row.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using test::RunCommand;
using test::SweepCommand;

std::string WriteChenSweep(const std::string& dir) {
  const std::string path = dir + "/chen.ini";
  std::ofstream(path) << "name = chen_small\nseed = 4\ntrials = 2\nN = 200\nN_test = 200\n"
                         "[data]\nmodel = cluster\nn = 4\nd = 16\n"
                         "[model]\nmax_steps = 25\ncurve_every = 5\nfilters = 8\n"
                         "[grid]\nmodel.kind = switch,single\nmodel.activation = cubic,linear\n";
  return path;
}

}  // namespace

TEST_CASE("A data-C sweep stores dispatch counts and curves, the same on 1 and 2 threads",
          "[chen][sweep]") {
  const std::string dir = test::FreshDirectory("chen_sweep");
  const std::string config = WriteChenSweep(dir);
  const auto one =
      RunCommand(SweepCommand("run " + config + " --threads 1 --out " + dir + "/1.h5"));
  const auto two =
      RunCommand(SweepCommand("run " + config + " --threads 2 --out " + dir + "/2.h5"));
  INFO(one.out << one.err << two.err);
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(test::CompareResults(dir + "/1.h5", dir + "/2.h5").empty());

  const ResultContents file = ReadResultFile(dir + "/1.h5");
  REQUIRE(file.rows.size() == 2 * 2 * 2);
  int switch_rows = 0;
  for (const TrialRow& row : file.rows) {
    const Metrics& m = row.result.metrics;
    REQUIRE(m.GetList("train_cluster_counts").size() == 4);
    const auto& steps = m.GetList("curve_step");
    REQUIRE(steps.size() >= 2);
    CHECK(m.GetList("curve_loss").size() == steps.size());
    if (m.HasList("dispatch_counts")) {  // the switch rows
      ++switch_rows;
      CHECK(m.GetList("dispatch_counts").size() == 4 * 8);
      CHECK(m.GetList("curve_entropy").size() == steps.size());
      CHECK(m.Get("dispatch_entropy") >= 0);
    } else {
      CHECK(std::isnan(m.Get("dispatch_entropy")));
    }
  }
  CHECK(switch_rows == 4);

  // A run stopped after its journal and resumed from it ends with the same file.
  std::filesystem::copy_file(dir + "/1.h5", dir + "/copy.h5");
  const auto again = RunCommand(SweepCommand("run " + config + " --out " + dir + "/copy.h5"));
  REQUIRE(again.status == 0);
  CHECK(test::CompareResults(dir + "/1.h5", dir + "/copy.h5").empty());

  // h5py: lengths in /trials, values in /trial_lists, split by the cumulative lengths.
  const std::string script = dir + "/read.py";
  std::ofstream(script) << "import h5py, numpy as np, sys\n"
                           "f = h5py.File(sys.argv[1], 'r')\n"
                           "n = f['/trials/dispatch_counts'][:]\n"
                           "v = f['/trial_lists/dispatch_counts'][:]\n"
                           "ends = np.cumsum(n)\n"
                           "assert ends[-1] == len(v)\n"
                           "rows = [v[e - k:e] for e, k in zip(ends, n) if k > 0]\n"
                           "assert all(abs(r.sum() - 200) < 1e-9 for r in rows), rows\n"
                           "print(len(rows))\n";
  const auto py = RunCommand("/usr/bin/python3 " + script + " " + dir + "/1.h5");
  INFO(py.err);
  REQUIRE(py.status == 0);
  CHECK(py.out.find("4") != std::string::npos);
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("A list metric survives the journal's encoding, empty lists included", "[chen][sweep]") {
  const RowSchema schema(
      {{"counts", ColumnType::kF64List, "a list"}, {"entropy", ColumnType::kF64, "a scalar"}}, 2);
  TrialRow a, b;
  a.cell_id = 7;
  a.result.metrics.SetList("counts", {1.5, -2, 1e300});
  a.result.metrics.Set("entropy", 0.25);
  b.cell_id = 8;  // no list recorded
  std::string bytes;
  schema.Encode(a, bytes);
  schema.Encode(b, bytes);
  size_t at = 0;
  TrialRow x, y;
  REQUIRE(schema.Decode(bytes.data(), bytes.size(), &at, x));
  REQUIRE(schema.Decode(bytes.data(), bytes.size(), &at, y));
  CHECK(at == bytes.size());
  CHECK(x.result.metrics.GetList("counts") == std::vector<double>{1.5, -2, 1e300});
  CHECK(schema.SameOutcome(a, x));
  CHECK(schema.SameOutcome(b, y));
  CHECK_FALSE(schema.SameOutcome(a, y));
  CHECK(y.result.metrics.GetList("counts").empty());
  // A record cut inside its list is malformed, not read past its end.
  for (size_t cut = 1; cut < 40; ++cut) {
    size_t offset = 0;
    TrialRow z;
    CHECK_FALSE(schema.Decode(bytes.data(), bytes.size() / 2 - cut, &offset, z));
  }
}

}  // namespace pmoe
