// Shared pieces of the sweep tests.
#include "sweep/sweep_test_support.hpp"

#include <fstream>

namespace pmoe::test {

std::string WriteQuickSweep(const std::string& dir, const std::string& name, int trials) {
  const std::string path = dir + "/" + name + ".ini";
  std::ofstream(path) << "name = " << name << "\nseed = 7\ntrials = " << trials
                      << "\nN_test = 300\n"
                         "[model]\nepochs = 20\nm = 20\n"
                         "[grid]\nmodel.kind = separate,cnn\nmodel.l = 2:4\nN = 60,120\n";
  return path;
}

std::string CompareResults(const std::string& a, const std::string& b) {
  const ResultContents x = ReadResultFile(a), y = ReadResultFile(b);
  if (x.cells.size() != y.cells.size()) return "different numbers of cells";
  for (size_t i = 0; i < x.cells.size(); ++i)
    if (x.cells[i].key != y.cells[i].key || x.cells[i].id != y.cells[i].id)
      return "cell " + std::to_string(i) + " differs";
  if (x.schema->Text() != y.schema->Text()) return "different trial columns";
  if (x.rows.size() != y.rows.size())
    return std::to_string(x.rows.size()) + " vs " + std::to_string(y.rows.size()) + " trials";
  for (size_t i = 0; i < x.rows.size(); ++i)
    if (!x.schema->SameOutcome(x.rows[i], y.rows[i]))
      return "trial row " + std::to_string(i) + " differs";
  return "";
}

std::string SweepCommand(const std::string& args) {
  return std::string(PMOE_SWEEP_PATH) + " " + args;
}

}  // namespace pmoe::test
