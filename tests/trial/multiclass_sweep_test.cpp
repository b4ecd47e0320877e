// A small sweep over the number of classes c end to end (MODEL.md §7): pmoe-sweep runs CNN,
// separate and joint pMoE at c = 2, 3, 4, and pmoe-analyze fits N* against c with the theory's
// orders beside, and tabulates the per-class metrics as ordinary columns.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("A sweep over c runs and pmoe-analyze exponent --over c fits it", "[multiclass][cli]") {
  const std::string dir = test::FreshDirectory("multiclass_sweep");
  std::ofstream(dir + "/c.ini")
      << "name = c\nseed = 2\ntrials = 4\nN_test = 300\n"
         "[data]\np = 6\n"
         "[model]\nm = 12\nloss = softmax\nepochs = 0\nmax_steps = 1500\n"
         "[model.separate]\nk = 0\nl = 4\n"
         "[model.joint]\nk = 4\nl = 6\n"
         "[grid]\nmodel.kind = separate,joint,cnn\ndata.c = 2,3,4\nN = 24..384 x2\n";
  const auto run = test::RunCommand(std::string(PMOE_SWEEP_PATH) + " run " + dir + "/c.ini --out " +
                                    dir + "/c.h5");
  INFO(run.err);
  REQUIRE(run.status == 0);

  const auto e = test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " exponent " + dir +
                                  "/c.h5 --over c --bootstrap 100");
  INFO(e.out << e.err);
  REQUIRE(e.status == 0);
  using Catch::Matchers::Contains;
  // Every series has its N* at c = 2 (whose keys leave data.c out), 3 and 4, and an exponent
  // with the theory's order beside it: c^12 for separate, c^8 for joint.
  CHECK_THAT(e.out, Contains("data.c"));
  for (const char* series : {"model.kind=separate", "model.kind=joint", "model.kind=cnn"})
    for (const char* c : {"       2 ", "       3 ", "       4 "}) {
      INFO(series << " at c =" << c);
      bool found = false;
      std::istringstream lines(e.out);
      for (std::string line; std::getline(lines, line);)
        found = found || (line.rfind(series, 0) == 0 && line.find(c) != std::string::npos);
      CHECK(found);
    }
  // The theory column is appendix M's multiclass bound over c (the binary formula says nothing
  // about c), and the CNN, which appendix M does not bound, gets none.
  bool separate_12 = false, joint_8 = false, cnn_none = false, binary_formula = false;
  std::istringstream lines(e.out);
  for (std::string line; std::getline(lines, line);) {
    // "model.kind=separate, ...  exponent lo hi intercept points  12  c^12 l^8 p^12 ..."
    if (line.rfind("model.kind=separate", 0) == 0 &&
        line.find(" 12  c^12 l^8 p^12 delta^6 / eps^16") != std::string::npos)
      separate_12 = true;
    if (line.rfind("model.kind=joint", 0) == 0 &&
        line.find(" 8  c^8 k^4 l^6 p^12 delta^6 / eps^16") != std::string::npos)
      joint_8 = true;
    if (line.rfind("model.kind=cnn", 0) == 0 && line.find("success") != std::string::npos &&
        line.find("none (appendix M bounds pMoE only)") != std::string::npos)
      cnn_none = true;
    binary_formula = binary_formula || line.find("  l^8 p^12") != std::string::npos ||
                     line.find("  k^4 l^6") != std::string::npos ||
                     line.find("n^8 p^12") != std::string::npos;
  }
  CHECK(separate_12);
  CHECK(joint_8);
  CHECK(cnn_none);
  CHECK_FALSE(binary_formula);

  const auto summary =
      test::RunCommand(std::string(PMOE_ANALYZE_PATH) + " summary " + dir + "/c.h5");
  REQUIRE(summary.status == 0);
  CHECK_THAT(summary.out, Contains("accuracy_class3") && Contains("router_hit_class3") &&
                              Contains("realized_l_star_pair1"));
}

}  // namespace pmoe
