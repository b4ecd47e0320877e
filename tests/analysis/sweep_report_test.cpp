// `pmoe-analyze report` on a small sweep over two numeric axes: one self-contained page with
// every section, rendered by headless Chromium with every figure decoded (as the claim page's
// test does); `pmoe-sweep run` names the command in its last lines; bad files are refused.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/run_command.hpp"

namespace pmoe {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("pmoe-analyze report makes a page for any sweep, rendered by a headless browser",
          "[analysis][report][sweep_report]") {
  const std::string dir = test::FreshDirectory("sweep_report");
  std::ofstream(dir + "/mine.ini") << "name = mine\nseed = 4\ntrials = 3\nN_test = 300\n"
                                      "[model]\nkind = separate\nm = 20\nepochs = 0\n"
                                      "max_steps = 2000\n"
                                      "[grid]\nmodel.l = 3:5\ndata.n = 8,16\n"
                                      "N = 24..192 x2\n";
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir +
                                    "/mine.ini --out " + dir + "/mine.h5");
  INFO(run.err);
  REQUIRE(run.status == 0);
  // The run's last lines say how to make the page.
  CHECK(run.out.find("report page: build/analysis/pmoe-analyze report " + dir + "/mine.h5") !=
        std::string::npos);

  const std::string page = dir + "/mine-report.html";
  const auto report = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " report " + dir +
                                       "/mine.h5 --bootstrap 50 --figures " + dir + "/figures");
  INFO(report.out << report.err);
  REQUIRE(report.status == 0);
  CHECK(report.out.find(page) != std::string::npos);  // the default: beside the file
  const std::string html = ReadFile(page);
  for (const char* id : {"swept", "training", "phase", "sample-complexity", "exponents", "rates",
                         "nstar-map", "config"}) {
    INFO("section " << id);
    CHECK(html.find(std::string("<h2 id='") + id + "'>") != std::string::npos);
  }
  // What the sections hold: the axes and their values, the budget, the exponents beside the
  // theory's order, the config's own text; no figure file referenced from outside the page.
  CHECK(html.find("<td>model.l</td><td>3, 4, 5</td>") != std::string::npos);
  CHECK(html.find("2000 steps") != std::string::npos);
  CHECK(html.find("theory&#x27;s order") != std::string::npos);
  CHECK(html.find("l^8") != std::string::npos);  // MODEL.md §9's order in l, in the table
  CHECK(html.find("max_steps = 2000") != std::string::npos);
  CHECK(html.find("src=\"data:image/png;base64,") != std::string::npos);
  CHECK(html.find("src=\"/") == std::string::npos);
  CHECK(std::filesystem::exists(dir + "/figures/mine_nstar_map_l_n.svg"));
  CHECK(std::filesystem::exists(dir + "/figures/mine_phase_l.pdf"));

  // The browser decodes every figure: the page's load handler writes decoded/total on <body>.
  REQUIRE(test::RunCommand("command -v chromium").status == 0);  // scripts/install-deps.sh
  const auto dom = test::RunCommand(
      "chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=10000 --dump-dom "
      "file://" +
      page + " 2>/dev/null");
  REQUIRE(dom.status == 0);
  std::smatch figures;
  REQUIRE(std::regex_search(dom.out, figures, std::regex("data-figures=\"(\\d+)/(\\d+)\"")));
  const int decoded = std::stoi(figures[1]), total = std::stoi(figures[2]);
  CHECK(total >= 11);  // two phase maps, four log-log, rates against l, n and N, the 2-D map
  CHECK(decoded == total);
  for (const char* id : {"swept", "training", "phase", "sample-complexity", "exponents", "rates",
                         "nstar-map", "config"})
    CHECK(dom.out.find(std::string("id=\"") + id + "\"") != std::string::npos);
}

TEST_CASE("pmoe-analyze report refuses what is not a result file, writing nothing",
          "[analysis][report][sweep_report]") {
  const std::string dir = test::FreshDirectory("sweep_report_bad");
  std::ofstream(dir + "/notes.h5") << "not an HDF5 file\n";
  const auto missing = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " report " + dir +
                                        "/absent.h5 --out " + dir + "/a.html");
  CHECK(missing.status == 2);
  CHECK(missing.err.find("absent.h5: no such file") != std::string::npos);
  const auto garbage = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " report " + dir +
                                        "/notes.h5 --out " + dir + "/b.html");
  CHECK(garbage.status == 2);
  // A text file where a result file belongs: named as such under the tool's prefix, as the C++
  // commands name it, with the command that makes a result file (not HDF5's own words).
  CHECK(garbage.err.find("pmoe-analyze: error: " + dir +
                         "/notes.h5: this is a text file (a sweep config?), not an HDF5 result "
                         "file; run it first: pmoe-sweep run") != std::string::npos);
  CHECK(garbage.err.find("signature") == std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir + "/a.html"));
  CHECK_FALSE(std::filesystem::exists(dir + "/b.html"));
}

}  // namespace pmoe
