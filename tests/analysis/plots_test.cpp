// make -f Makefile.plots on a small results folder draws non-empty PNGs, and redraws nothing
// when nothing changed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("Makefile.plots turns a result file into non-empty PNGs", "[analysis][plots]") {
  const std::string dir = test::FreshDirectory("plots");
  std::ofstream(dir + "/tiny.ini") << "name = tiny\nseed = 2\ntrials = 4\nN_test = 300\n"
                                      "[model]\nm = 20\nepochs = 40\n"
                                      "[grid]\nmodel.l = 2:4\nN = 20..160 x2\n";
  REQUIRE(test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/tiny.ini --out " +
                           dir + "/results/tiny.h5").status == 0);
  const std::string make = "cd " + std::string(PMOE_SOURCE_DIR) + " && make -f Makefile.plots "
                           "RESULTS=" + dir + "/results ANALYZE=" + PMOE_ANALYZE_PATH;
  const auto first = test::RunCommand(make);
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  for (const char* png : {"tiny_phase_l.png", "tiny_nstar_l.png", "tiny_accuracy_vs_N.png",
                          "tiny_router_hit.png"}) {
    const std::string path = dir + "/results/plots/tiny/" + png;
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    CHECK(std::filesystem::file_size(path) > 10000);
    std::ifstream file(path, std::ios::binary);
    char magic[4] = {};
    file.read(magic, 4);
    CHECK(std::string(magic + 1, 3) == "PNG");
  }
  const auto again = test::RunCommand(make);
  CHECK(again.status == 0);
  CHECK(again.out.find("plot_results.py") == std::string::npos);  // up to date: nothing redrawn
}

}  // namespace pmoe
