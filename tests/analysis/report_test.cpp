// The report page built from small versions of the paper's sweeps (tests/analysis/report_sweeps):
// every claim present with a computed verdict and its figures, and the page rendered by a headless
// browser (Debian's chromium, installed by scripts/install-deps.sh) with every figure decoded.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/run_command.hpp"

namespace pmoe {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("The paper report has every claim with a verdict and renders in a headless browser",
          "[analysis][report]") {
  const std::string dir = test::FreshDirectory("paper_report");
  const std::string sweeps = std::string(PMOE_SOURCE_DIR) + "/tests/analysis/report_sweeps";
  int configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(sweeps)) {
    const std::string name = entry.path().stem().string();
    const auto run = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " +
                                      entry.path().string() + " --out " + dir + "/" + name + ".h5");
    INFO(run.err);
    REQUIRE(run.status == 0);
    ++configs;
  }
  REQUIRE(configs == 8);
  const std::string page = dir + "/report.html";
  const auto report = test::RunCommand("cd " + std::string(PMOE_SOURCE_DIR) +
                                       " && /usr/bin/python3 analysis/report/paper_report.py " +
                                       dir + " --out " + page + " --bootstrap 50 --reference " +
                                       dir + "/none.html --analyze " + PMOE_ANALYZE_PATH);
  INFO(report.out << report.err);
  REQUIRE(report.status == 0);
  const std::string html = ReadAll(page);

  // Every claim (a)-(g) has its section, its rule, and verdicts drawn from the three words only;
  // the image sweeps were not run, and say so.
  for (const char* id : {"a", "b", "c", "d", "e", "f", "g"}) {
    INFO("claim " << id);
    CHECK(html.find(std::string("id='claim-") + id + "'") != std::string::npos);
  }
  CHECK(std::count(html.begin(), html.end(), '\n') > 50);
  const std::regex verdict(
      "class=\"verdict (ok|bad|und|na)\">(supported|not supported|undecided|not testable|"
      "not run)<");
  const auto verdicts = std::distance(std::sregex_iterator(html.begin(), html.end(), verdict),
                                      std::sregex_iterator());
  // Each sweep a claim names (pattern model, MNIST, Fashion-MNIST: 18): once in the table, once
  // in its section. No reference verdicts beside them (--reference names no page).
  CHECK(verdicts == 2 * 18);
  CHECK(html.find("not run") != std::string::npos);  // the MNIST and Fashion-MNIST sweeps
  // No rule raised on these files: every pattern-model verdict was computed.
  CHECK(html.find("class=\"verdict err\"") == std::string::npos);
  for (const char* sweep : {"a_models_vs_N", "b_separate_l", "c_joint_l", "c_joint_k",
                            "d_router_separate", "e_router_joint", "f_ratio_n", "g_lemma41"})
    CHECK(html.find(std::string("<code>") + sweep + "</code> <span class=\"verdict ") !=
          std::string::npos);

  // Lemma 4.1 holds exactly on the pattern model from l = l* on (balanced labels), so claims (d)
  // and (g) are supported even at this size: the rules read the numbers, not a default.
  for (const char* sweep : {"d_router_separate", "g_lemma41"})
    CHECK(html.find(std::string("<code>") + sweep +
                    "</code> <span class=\"verdict ok\">"
                    "supported<") != std::string::npos);

  // The browser decodes every figure: the page's load handler writes decoded/total on <body>.
  REQUIRE(test::RunCommand("command -v chromium").status == 0);  // scripts/install-deps.sh
  const auto dom = test::RunCommand(
      "chromium --headless --no-sandbox --disable-gpu "
      "--virtual-time-budget=10000 --dump-dom file://" +
      page + " 2>/dev/null");
  REQUIRE(dom.status == 0);
  std::smatch figures;
  REQUIRE(std::regex_search(dom.out, figures, std::regex("data-figures=\"(\\d+)/(\\d+)\"")));
  const int decoded = std::stoi(figures[1]), total = std::stoi(figures[2]);
  CHECK(total >= 12);  // at least one per sweep, two or three for most
  CHECK(decoded == total);
  const auto shot = test::RunCommand("cd " + dir +
                                     " && chromium --headless --no-sandbox "
                                     "--disable-gpu --window-size=1200,2000 --screenshot=" +
                                     dir + "/page.png file://" + page + " 2>/dev/null");
  CHECK(shot.status == 0);
  CHECK(std::filesystem::file_size(dir + "/page.png") > 50000);
}

}  // namespace pmoe
