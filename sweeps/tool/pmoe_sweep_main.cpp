// pmoe-sweep: grids of cells over a sweep config. Commands so far: plan.
// Exit status: 0 done, 2 bad command, config or infeasible cell.
#include <iostream>
#include <string>
#include <vector>

#include "plan_command.hpp"
#include "pmoe/core/errors.hpp"

namespace {

constexpr const char* kUsage =
    "usage: pmoe-sweep plan CONFIG.ini [--all] [--json]\n"
    "  plan   the cells, trials, estimated cost and memory of a sweep, without running it\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "plan") return pmoe::RunPlanCommand(args, std::cout);
    std::cerr << "pmoe-sweep: error: unknown command \"" << command << "\" (expected: plan)\n"
              << kUsage;
    return 2;
  } catch (const pmoe::ConfigError& e) {
    std::cerr << "pmoe-sweep: error: " << e.what() << "\n";
    return 2;
  }
}
