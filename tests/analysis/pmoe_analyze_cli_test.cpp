// pmoe-analyze on a small real sweep: the tables come out, --json parses, --csv has a header,
// ratios appear when CNN and pMoE share a file, bad input exits 2.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

std::string Analyze(const std::string& args) { return std::string(PMOE_ANALYZE_PATH) + " " + args; }

// A sweep with CNN and separate pMoE over l and N, run once for every test in this file.
const std::string& SmallSweep() {
  static const std::string path = [] {
    const std::string dir = test::FreshDirectory("analyze_sweep");
    std::ofstream(dir + "/small.ini") << "name = small\nseed = 3\ntrials = 8\nN_test = 400\n"
                                         "[model]\nm = 20\nepochs = 60\n"
                                         "[grid]\nmodel.kind = separate,cnn\nmodel.l = 3,5\n"
                                         "N = 20..640 x2\n";
    const auto r = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir +
                                    "/small.ini --out " + dir + "/small.h5");
    REQUIRE(r.status == 0);
    return dir + "/small.h5";
  }();
  return path;
}

bool ParsesAsJson(const std::string& text) {
  const std::string dir = test::FreshDirectory("analyze_json");
  std::ofstream(dir + "/out.json") << text;
  return test::RunCommand("/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' " +
                          dir + "/out.json")
             .status == 0;
}

}  // namespace

TEST_CASE("pmoe-analyze summary tabulates every cell", "[analysis][cli]") {
  const auto r = test::RunCommand(Analyze("summary --wide " + SmallSweep()));
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("model.kind") && Contains("success_lo") && Contains("router_hit"));
  // Separate pMoE at 2 values of l and the CNN (which reads no l) once, at each of 6 N.
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + (2 + 1) * 6);
  const auto csv = test::RunCommand(Analyze("summary --csv " + SmallSweep()));
  CHECK(csv.out.rfind("model.kind,model.l,N,trials,", 0) == 0);
  const auto json = test::RunCommand(Analyze("summary --json " + SmallSweep()));
  CHECK(ParsesAsJson(json.out));
  // --where keeps one l, and the CNN (it reads no l: the same cell at every l).
  const auto one_l =
      test::RunCommand(Analyze("summary --wide " + SmallSweep() + " --where model.l=5"));
  INFO(one_l.err);
  REQUIRE(one_l.status == 0);
  CHECK(std::count(one_l.out.begin(), one_l.out.end(), '\n') == 1 + (1 + 1) * 6);
  CHECK_THAT(one_l.out, Contains("cnn") && !Contains("separate      3"));
  const auto none = test::RunCommand(Analyze("summary " + SmallSweep() + " --where l=4"));
  CHECK(none.status == 2);
  CHECK_THAT(none.err, Contains("--where model.l") && Contains("3, 5"));
}

TEST_CASE("pmoe-analyze sample-complexity and exponent give N* ratios and JSON",
          "[analysis][cli]") {
  const auto sc =
      test::RunCommand(Analyze("sample-complexity " + SmallSweep() + " --over l --bootstrap 100"));
  INFO(sc.err);
  REQUIRE(sc.status == 0);
  CHECK_THAT(sc.out, Contains("model.kind=cnn") && Contains("model.kind=separate"));
  CHECK_THAT(sc.out, Contains("cnn/separate"));
  const auto e =
      test::RunCommand(Analyze("exponent " + SmallSweep() + " --over l --bootstrap 100 --json"));
  REQUIRE(e.status == 0);
  CHECK(ParsesAsJson(e.out));
  CHECK_THAT(e.out, Contains("\"nstar\"") && Contains("\"exponents\"") && Contains("\"ratios\""));
  CHECK_THAT(e.out, Contains("l^8 p^12"));
}

TEST_CASE("pmoe-analyze reads every delta and epsilon, with shapes and the l = n control",
          "[analysis][cli][quantiles]") {
  // The decade reference runs at n = 64: n/l = 1 is l = n, and the N* ratio steps at n/l = 8.
  const std::string decade =
      std::string(PMOE_SOURCE_DIR) + "/results/reference/paper/f_ratio_decade.h5";
  const std::string over = " --over n/l --where data.n=64 --bootstrap 100";
  const auto text = test::RunCommand(Analyze("exponent " + decade + over));
  INFO(text.err);
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out, Contains("# quantiles") && Contains("success@0.9") &&
                           Contains("success@0.95") && Contains("# controls") &&
                           Contains("includes_1") && Contains("# shapes"));
  CHECK_THAT(text.out, Contains("cnn/separate [success]: grows like a step at n/l ≈ 8"));
  const auto json =
      test::RunCommand(Analyze("exponent " + decade + over + " --delta 0.1 --epsilon 0.1 --json"));
  REQUIRE(json.status == 0);
  CHECK(ParsesAsJson(json.out));
  CHECK_THAT(json.out, Contains("\"quantiles\"") && Contains("\"shapes\"") &&
                           Contains("\"controls\"") && Contains("\"success@0.9,eps=0.1\"") &&
                           !Contains("success@0.8"));
  for (const char* bad : {" --delta 0", " --delta 0.1,,0.2", " --epsilon 2", " --delta x"}) {
    const auto refused = test::RunCommand(Analyze("sample-complexity " + decade + bad));
    INFO(bad);
    CHECK(refused.status == 2);
    CHECK_THAT(refused.err, Contains(std::string(bad).substr(1, 7)) && Contains("list of numbers"));
  }
}

TEST_CASE("pmoe-analyze refuses bad input with exit status 2", "[analysis][cli]") {
  const auto missing = test::RunCommand(Analyze("summary /nonexistent.h5"));
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Contains("/nonexistent.h5"));
  const auto no_axis = test::RunCommand(Analyze("exponent " + SmallSweep()));
  CHECK(no_axis.status == 2);
  CHECK_THAT(no_axis.err, Contains("--over"));
  const auto bad_axis =
      test::RunCommand(Analyze("sample-complexity " + SmallSweep() + " --over width"));
  CHECK(bad_axis.status == 2);
  CHECK_THAT(bad_axis.err, Contains("width"));
  const auto threshold =
      test::RunCommand(Analyze("sample-complexity " + SmallSweep() + " --threshold 1.5"));
  CHECK(threshold.status == 2);
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("pmoe-analyze flags estimates of trials that did not converge, in every format",
          "[analysis][cli][readings]") {
  // Two epochs: most trials near N* stop at the epoch cap, not at zero training error.
  const std::string dir = test::FreshDirectory("analyze_capped");
  std::ofstream(dir + "/capped.ini") << "name = capped\nseed = 3\ntrials = 8\nN_test = 400\n"
                                        "[model]\nm = 20\nepochs = 2\nl = 4\n"
                                        "[grid]\nmodel.kind = separate,cnn\nN = 20..640 x2\n";
  REQUIRE(test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/capped.ini --out " +
                           dir + "/capped.h5")
              .status == 0);
  const std::string file = dir + "/capped.h5";
  const auto summary = test::RunCommand(Analyze("summary " + file));
  CHECK_THAT(summary.out, Contains("stop_epoch_cap") && Contains("converged"));
  const auto text = test::RunCommand(Analyze("sample-complexity " + file + " --bootstrap 50"));
  INFO(text.out << text.err);
  REQUIRE(text.status == 0);
  CHECK_THAT(text.out,
             Contains("low_convergence") && Contains("N_acc") && Contains("training budget"));
  const auto csv = test::RunCommand(Analyze("sample-complexity " + file + " --bootstrap 50 --csv"));
  CHECK_THAT(csv.out, Contains(",converged,flag,") && Contains("low_convergence"));
  const auto json =
      test::RunCommand(Analyze("sample-complexity " + file + " --bootstrap 50 --json"));
  CHECK(ParsesAsJson(json.out));
  CHECK_THAT(json.out, Contains("\"flag\":\"low_convergence\""));
}

TEST_CASE("pmoe-analyze prints bounds outside the grid and refuses a non-numeric axis",
          "[analysis][cli][readings]") {
  // The target accuracy 0.9999 is reached nowhere in SmallSweep's grid: bounds, never numbers.
  const auto r = test::RunCommand(
      Analyze("sample-complexity " + SmallSweep() + " --bootstrap 50 --target-accuracy 0.9999"));
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.out, Contains("> 640"));
  CHECK_THAT(r.out, !Contains("0 [0, 0]"));
  const auto kind = test::RunCommand(Analyze("exponent " + SmallSweep() + " --over model.kind"));
  CHECK(kind.status == 2);
  CHECK_THAT(kind.err, Contains("model.kind is not a numeric axis"));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("pmoe-analyze table prints Chen's table form and agrees with the file read by numpy",
          "[analysis][cli][table]") {
  // A small data-C sweep of the published table's shape: 2 settings x single/switch x
  // linear/cubic, 3 trials each (well under a second).
  const std::string dir = test::FreshDirectory("analyze_table");
  std::ofstream(dir + "/chen.ini") << "name = chen_tiny\nseed = 4\ntrials = 3\nN = 200\n"
                                      "N_test = 200\n[data]\nmodel = cluster\nn = 4\nd = 16\n"
                                      "[model]\nmax_steps = 25\nfilters = 8\n"
                                      "[grid]\ndata.gamma_hi = 3,2\nmodel.kind = single,switch\n"
                                      "model.activation = linear,cubic\n";
  const std::string file = dir + "/chen.h5";
  REQUIRE(test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/chen.ini --out " + file)
              .status == 0);
  const auto text =
      test::RunCommand(Analyze("table " + file + " --metrics test_acc%,dispatch_entropy"));
  INFO(text.out << text.err);
  REQUIRE(text.status == 0);
  // Settings down the side with their gamma range, the four models across in the file's order.
  CHECK_THAT(text.out, Contains("gamma 0.5..3") && Contains("gamma 0.5..2") &&
                           Contains("single linear") && Contains("switch cubic") &&
                           Contains("test_acc (%)") && Contains("dispatch_entropy"));
  CHECK(text.out.find("single linear") < text.out.find("switch cubic"));
  CHECK(std::count(text.out.begin(), text.out.end(), '\n') == 1 + 2 * 2);

  // Every CSV record against numpy's mean and sd (ddof 1) of the file's own columns.
  const auto csv =
      test::RunCommand(Analyze("table " + file + " --metrics test_acc,dispatch_entropy --csv"));
  REQUIRE(csv.status == 0);
  std::ofstream(dir + "/table.csv") << csv.out;
  std::ofstream(dir + "/check.py")
      << "import csv, sys, h5py, numpy as np\n"
         "f = h5py.File(sys.argv[1], 'r')\n"
         "keys = [k.decode() if isinstance(k, bytes) else k for k in f['/cells/key'][:]]\n"
         "params = {int(i): dict(p.split('=', 1) for p in k.split(';') if p)\n"
         "          for i, k in zip(f['/cells/cell_id'][:], keys)}\n"
         "cell = f['/trials/cell_id'][:]\n"
         "rows = list(csv.DictReader(open(sys.argv[2])))\n"
         "assert len(rows) == 2 * 4 * 2, len(rows)\n"
         "for r in rows:\n"
         "    ids = [i for i, p in params.items() if p['data.gamma_hi'] == r['data.gamma_hi'] and\n"
         "           p['model.kind'] == r['model.kind'] and\n"
         "           p['model.activation'] == r['model.activation']]\n"
         "    assert len(ids) == 1, ids\n"
         "    column = {'test_acc': 'test_acc'}.get(r['metric'], r['metric'])\n"
         "    v = f['/trials/' + column][:][cell == ids[0]]\n"
         "    v = v[np.isfinite(v)]\n"
         "    assert int(r['n']) == len(v) and int(r['trials']) == 3, r\n"
         "    if len(v):\n"
         "        assert abs(float(r['mean']) - v.mean()) < 1e-12, (r, v)\n"
         "        assert abs(float(r['sd']) - v.std(ddof=1)) < 1e-12, (r, v)\n"
         "    else:\n"
         "        assert r['mean'] == '' and r['model.kind'] == 'single', r\n"
         "print('ok')\n";
  const auto check =
      test::RunCommand("/usr/bin/python3 " + dir + "/check.py " + file + " " + dir + "/table.csv");
  INFO(check.out << check.err);
  CHECK(check.out == "ok\n");

  // analysis/report/chen_report.py prints the same numbers under the published settings' numbers,
  // each model named by its family's label (/theory/label).
  const auto report = test::RunCommand("/usr/bin/python3 " + std::string(PMOE_SOURCE_DIR) +
                                       "/analysis/report/chen_report.py table " + file +
                                       " --analyze " + PMOE_ANALYZE_PATH);
  INFO(report.out << report.err);
  CHECK(report.status == 0);
  CHECK_THAT(report.out, Contains("1 (γ 0.5..3, σp 1)") && Contains("3 (γ 0.5..2, σp 1)") &&
                             Contains("switch MoE cubic") && Contains("single model linear"));

  // Bad arguments: exit 2, the message names the culprit and what was expected.
  const auto metric = test::RunCommand(Analyze("table " + file + " --metrics entropy"));
  CHECK(metric.status == 2);
  CHECK_THAT(metric.err, Contains("\"entropy\"") && Contains("dispatch_entropy"));
  const auto param = test::RunCommand(Analyze("table " + file + " --rows width"));
  CHECK(param.status == 2);
  CHECK_THAT(param.err, Contains("\"width\"") && Contains("data.gamma_hi"));
  const auto pooled = test::RunCommand(Analyze("table " + file + " --rows kind --cols activation"));
  CHECK(pooled.status == 2);
  CHECK_THAT(pooled.err, Contains("data.gamma_hi"));
  const auto elsewhere = test::RunCommand(Analyze("summary " + file + " --rows kind"));
  CHECK(elsewhere.status == 2);
  CHECK_THAT(elsewhere.err, Contains("options of the table command"));
}

}  // namespace pmoe
