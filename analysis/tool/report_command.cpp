// pmoe-analyze report FILE.h5...: the page is drawn by the Python package (matplotlib does the
// figures, and the claim pages' renderer the HTML), so this command hands its arguments to
// /usr/bin/python3 -m pmoe.report.sweep_report with the package on PYTHONPATH and this very
// binary as the --analyze the module calls back for every table. PMOE_PYTHON and
// PMOE_PYTHON_DIR override the interpreter and the package folder (a moved checkout).
#include "report_command.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#ifndef PMOE_PYTHON_DIR
#error "PMOE_PYTHON_DIR (analysis/python of the source tree) must be defined by the build"
#endif

namespace pmoe {
namespace {

std::string Env(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// This binary's own path, so the module runs the same pmoe-analyze whatever the PATH says.
std::string SelfPath() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : "pmoe-analyze";
}

}  // namespace

int RunReportCommand(const std::vector<std::string>& args) {
  const std::string python = Env("PMOE_PYTHON", "/usr/bin/python3");
  const std::string package = Env("PMOE_PYTHON_DIR", PMOE_PYTHON_DIR);
  if (::access((package + "/pmoe/report/sweep_report.py").c_str(), R_OK) != 0) {
    std::cerr << "pmoe-analyze: error: report: the Python package is not at " << package
              << " (expected " << package
              << "/pmoe/report/sweep_report.py; set PMOE_PYTHON_DIR to the checkout's "
                 "analysis/python)\n";
    return 2;
  }
  const std::string old_path = Env("PYTHONPATH", "");
  ::setenv("PYTHONPATH", (package + (old_path.empty() ? "" : ":" + old_path)).c_str(), 1);
  // --analyze first: a user's own --analyze later on the line wins (argparse keeps the last).
  std::vector<std::string> words = {python, "-m", "pmoe.report.sweep_report", "--analyze",
                                    SelfPath()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  ::execv(python.c_str(), argv.data());
  std::cerr << "pmoe-analyze: error: report: cannot run " << python << ": " << std::strerror(errno)
            << " (Debian's python3 with numpy, matplotlib and h5py is expected; PMOE_PYTHON "
               "names another)\n";
  return 2;
}

}  // namespace pmoe
