// Paper-ready figures, checked on a small sweep over two numeric axes (l and n) and N by
// tests/analysis/figure_layout_check.py: every figure as PNG (300 dpi), PDF and SVG; the SVG's
// tick labels include the grid's values; no legend overlaps an axes' data area (matplotlib's own
// window extents) or covers a data point; series in numeric order, at most one per colour in a
// panel; rates within [0, 1]; no suptitle; no legend saying "all".
#include <catch2/catch.hpp>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("Figures are paper-ready: formats, grid ticks, legends outside the data",
          "[analysis][plots][figures]") {
  const std::string dir = test::FreshDirectory("figures");
  std::ofstream(dir + "/two_axes.ini") << "name = two_axes\nseed = 3\ntrials = 3\nN_test = 300\n"
                                          "[model]\nkind = separate\nm = 20\nepochs = 0\n"
                                          "max_steps = 2000\n"
                                          "[grid]\nmodel.l = 3:5\ndata.n = 8,16\n"
                                          "N = 24..192 x2\n";
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir +
                                    "/two_axes.ini --out " + dir + "/two_axes.h5");
  INFO(run.err);
  REQUIRE(run.status == 0);
  const auto check =
      test::RunCommand("/usr/bin/python3 " + std::string(PMOE_SOURCE_DIR) +
                       "/tests/analysis/figure_layout_check.py " + dir + "/two_axes.h5 " + dir +
                       "/figures --analyze " + PMOE_ANALYZE_PATH);
  INFO(check.out << check.err);
  CHECK(check.status == 0);
  CHECK(check.out.find("all figure checks passed") != std::string::npos);
}

}  // namespace pmoe
