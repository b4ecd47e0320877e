// Chen et al.'s report page (analysis/report/chen_claims.py through paper_report.py --paper chen):
// the rules on made-up evidence with known verdicts (chen_claims_test.py), and the page built from
// tiny versions of the Chen sweeps (tests/analysis/chen_report_sweeps), every rule reading its
// file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("Chen's claim rules give the known verdicts on made-up evidence", "[report][chen]") {
  // The rules read their statistics from pmoe-analyze statistic (fake_rows.py).
  const auto run =
      test::RunCommand("PMOE_ANALYZE=" + std::string(PMOE_ANALYZE_PATH) + " /usr/bin/python3 " +
                       std::string(PMOE_SOURCE_DIR) + "/tests/analysis/chen_claims_test.py");
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.err.find("\nOK") != std::string::npos);  // unittest reports on stderr
}

TEST_CASE("The Chen report has every claim with a computed verdict", "[report][chen]") {
  const std::string dir = test::FreshDirectory("chen_report");
  const std::string sweeps = std::string(PMOE_SOURCE_DIR) + "/tests/analysis/chen_report_sweeps";
  for (const char* name : {"chen_table", "chen_curves", "chen_vs_N"}) {
    const auto run = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + sweeps + "/" + name +
                                      ".ini --out " + dir + "/" + name + ".h5");
    INFO(run.err);
    REQUIRE(run.status == 0);
  }
  const std::string page = dir + "/report.html";
  const auto report = test::RunCommand("cd " + std::string(PMOE_SOURCE_DIR) +
                                       " && /usr/bin/python3 analysis/report/paper_report.py " +
                                       dir + " --paper chen --out " + page +
                                       " --bootstrap 50 --analyze " + PMOE_ANALYZE_PATH);
  INFO(report.out << report.err);
  REQUIRE(report.status == 0);
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  const std::string html = text.str();
  CHECK(html.find("Chen, Deng, Wu, Gu, Li") != std::string::npos);
  for (const char* id : {"1", "2", "3", "4", "5", "6"}) {
    INFO("claim " << id);
    CHECK(html.find(std::string("id='claim-") + id + "'") != std::string::npos);
  }
  // Every sweep that was run has a verdict its rule computed (none raised); the one not run
  // says so.
  CHECK(html.find("class=\"verdict err\"") == std::string::npos);
  for (const char* sweep : {"chen_table", "chen_curves", "chen_vs_N"}) {
    INFO(sweep);
    CHECK(std::regex_search(html, std::regex(std::string("<code>") + sweep +
                                             "</code> <span class=\"verdict (ok|bad|und|na)\">"
                                             "(supported|not supported|undecided|"
                                             "not testable)<")));
  }
  CHECK(html.find("<code>chen_variants</code> <span class=\"verdict na\">not run<") !=
        std::string::npos);
  // The table's bars and the entropy curves are inside the page.
  const std::regex image("<img src=\"data:image/png;base64,");
  CHECK(std::distance(std::sregex_iterator(html.begin(), html.end(), image),
                      std::sregex_iterator()) == 2);
}

}  // namespace pmoe
