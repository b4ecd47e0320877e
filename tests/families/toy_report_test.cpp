// The toy families of the tests (toy_families.hpp) through what reads a result file besides
// pmoe-analyze's tables and the figures (families_test.cpp): the report page and pmoe.load. Both
// learn the toys from the file alone: adding a family touches no file of theirs (issue 43).
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "support/run_command.hpp"
#include "toy_sweep.hpp"

namespace pmoe {

TEST_CASE("Toy families reach the report page and pmoe.load, which know nothing of them",
          "[family][report]") {
  const std::string dir = RunToySweep("toy_report");

  const auto report = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " report " + dir +
                                       "/toy.h5 --bootstrap 20");
  INFO(report.out << report.err);
  REQUIRE(report.status == 0);
  std::stringstream page;
  page << std::ifstream(dir + "/toy-report.html").rdbuf();
  const std::string html = page.str();
  CHECK(html.find("<h2 id='rates'>") != std::string::npos);
  CHECK(html.find("data.toy_signal") != std::string::npos);  // an axis of the toy data
  // The rate the toy model declares, drawn against N under the meaning it declares.
  CHECK(html.find("test samples beyond the margin against N") != std::string::npos);
  CHECK(html.find("src=\"data:image/png;base64,") != std::string::npos);

  const auto load = test::RunCommand(
      "cd " + std::string(PMOE_SOURCE_DIR) +
      "/analysis/python && /usr/bin/python3 -c 'import pmoe; df = pmoe.load(\"" + dir +
      "/toy.h5\"); print(len(df), df[\"model.kind\"].unique()[0], "
      "df[\"toy_margin_rate\"].between(0, 1).all(), \"data.toy_signal\" in df.columns)'");
  INFO(load.err);
  REQUIRE(load.status == 0);
  CHECK(load.out == "16 toy_model True True\n");
}

}  // namespace pmoe
