// The toy families' sweep, run by the tests that follow it through the tools (families_test,
// toy_report_test): 2 N x 2 toy_signal cells, 4 trials each, into a fresh folder.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "support/run_command.hpp"

namespace pmoe {

// The folder of the run; its result file is FOLDER/toy.h5.
inline std::string RunToySweep(const std::string& name) {
  const std::string dir = test::FreshDirectory(name);
  std::ofstream(dir + "/toy.ini") << "trials = 4\nN_test = 200\n[data]\nmodel = toy\nn = 3\n"
                                     "toy_dim = 2\n[model]\nkind = toy_model\n"
                                     "[grid]\nN = 20,40\ndata.toy_signal = 0.5,3\n";
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_TOY_PATH) + " run " + dir +
                                    "/toy.ini --out " + dir + "/toy.h5");
  INFO(run.err);
  REQUIRE(run.status == 0);
  return dir;
}

}  // namespace pmoe
