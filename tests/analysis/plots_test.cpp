// make -f Makefile.plots on a small results folder draws non-empty PNGs (and PDF and SVG), and
// redraws nothing when nothing changed; --formats png draws the PNGs alone; a multiclass file gets
// its per-class metrics drawn.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "support/run_command.hpp"

namespace pmoe {

bool IsPng(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, 4);
  return std::string(magic + 1, 3) == "PNG";
}

TEST_CASE("Makefile.plots turns a result file into non-empty PNGs", "[analysis][plots]") {
  const std::string dir = test::FreshDirectory("plots");
  std::ofstream(dir + "/tiny.ini") << "name = tiny\nseed = 2\ntrials = 4\nN_test = 300\n"
                                      "[model]\nm = 20\nepochs = 40\n"
                                      "[grid]\nmodel.l = 2:4\nN = 20..160 x2\n";
  REQUIRE(test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/tiny.ini --out " + dir +
                           "/results/tiny.h5")
              .status == 0);
  const std::string make = "cd " + std::string(PMOE_SOURCE_DIR) +
                           " && make -f Makefile.plots "
                           "RESULTS=" +
                           dir + "/results ANALYZE=" + PMOE_ANALYZE_PATH;
  const auto first = test::RunCommand(make);
  INFO(first.out << first.err);
  REQUIRE(first.status == 0);
  for (const char* png :
       {"tiny_phase_l.png", "tiny_nstar_l.png", "tiny_accuracy_vs_N.png", "tiny_router_hit.png"}) {
    const std::string path = dir + "/results/plots/tiny/" + png;
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    CHECK(std::filesystem::file_size(path) > 10000);
    std::ifstream file(path, std::ios::binary);
    char magic[4] = {};
    file.read(magic, 4);
    CHECK(std::string(magic + 1, 3) == "PNG");
  }
  const std::string stem = dir + "/results/plots/tiny/tiny_phase_l";
  CHECK(std::filesystem::file_size(stem + ".pdf") > 1000);
  CHECK(std::filesystem::file_size(stem + ".svg") > 1000);
  const auto again = test::RunCommand(make);
  CHECK(again.status == 0);
  CHECK(again.out.find("plot_results.py") == std::string::npos);  // up to date: nothing redrawn

  // --formats png (the main job's): the PNGs alone, and no PDF or SVG of the earlier drawing
  // left beside them to be mistaken for this one's.
  const std::string plot = "cd " + std::string(PMOE_SOURCE_DIR) +
                           " && /usr/bin/python3 analysis/plots/plot_results.py " + dir +
                           "/results/tiny.h5 " + dir + "/results/plots/tiny --analyze " +
                           PMOE_ANALYZE_PATH + " --formats ";
  const auto png_only = test::RunCommand(plot + "png");
  INFO(png_only.out << png_only.err);
  REQUIRE(png_only.status == 0);
  CHECK(IsPng(stem + ".png"));
  CHECK_FALSE(std::filesystem::exists(stem + ".pdf"));
  CHECK_FALSE(std::filesystem::exists(stem + ".svg"));
  for (const char* bad : {"png,gif", "png,png", "''"}) {
    const auto refused = test::RunCommand(plot + bad);
    INFO(bad << ": " << refused.err);
    CHECK(refused.status == 2);
    CHECK(refused.err.find("expected a comma-separated subset of png,pdf,svg") !=
          std::string::npos);
  }
  CHECK(IsPng(stem + ".png"));  // a refused command draws and removes nothing
}

// The metrics families declare per class (MODEL.md §7) get a figure each, one line per class,
// found by the form of their columns: the model families' accuracy and router hit rate and the
// data family's per-pair l* alike, no plotting code naming any of them. A binary file has none.
TEST_CASE("Makefile.plots draws every per-class metric of a multiclass file against N",
          "[analysis][plots][multiclass]") {
  const std::string dir = test::FreshDirectory("plots_multiclass");
  std::ofstream(dir + "/mc.ini") << "name = mc\nseed = 2\ntrials = 2\nN_test = 200\n"
                                    "[data]\np = 8\n"
                                    "[model]\nm = 12\nloss = softmax\nepochs = 0\n"
                                    "max_steps = 300\n"
                                    "[model.separate]\nk = 0\nl = 4\n"
                                    "[grid]\nmodel.kind = separate,cnn\ndata.c = 3,4\n"
                                    "N = 24..96 x2\n";
  std::ofstream(dir + "/bin.ini") << "name = bin\nseed = 2\ntrials = 2\nN_test = 200\n"
                                     "[model]\nm = 12\nepochs = 20\n[grid]\nN = 24,48\n";
  for (const char* name : {"mc", "bin"})
    REQUIRE(test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/" + name +
                             ".ini --out " + dir + "/results/" + name + ".h5")
                .status == 0);
  const auto make = test::RunCommand("cd " + std::string(PMOE_SOURCE_DIR) +
                                     " && make -f Makefile.plots RESULTS=" + dir +
                                     "/results ANALYZE=" + PMOE_ANALYZE_PATH);
  INFO(make.out << make.err);
  REQUIRE(make.status == 0);
  for (const char* png :
       {"mc_accuracy_class_vs_N.png", "mc_router_hit_class_vs_N.png",
        "mc_realized_l_star_pair_vs_N.png", "mc_nstar_c.png", "mc_accuracy_vs_N.png"}) {
    const std::string path = dir + "/results/plots/mc/" + png;
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    CHECK(std::filesystem::file_size(path) > 10000);
    CHECK(IsPng(path));
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/results/plots/bin")) {
    const std::string file = entry.path().filename().string();
    INFO(file);
    CHECK(file.find("class") == std::string::npos);
    CHECK(file.find("pair") == std::string::npos);
  }
}

}  // namespace pmoe
