// The checks of `pmoe-sweep slurm`'s inputs (slurm_checks.hpp).
#include "slurm_checks.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/sweep/run/sweep_setup.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/sweep_store.hpp"

namespace pmoe {

void ReadTemplate(const std::string& path, std::vector<std::string>* extra) {
  std::istringstream in(ReadInputText(path, "--sbatch-file"));  // a FIFO would block
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a file with CRLF line ends
    if (line.find_first_not_of(" \t\r") == std::string::npos || line.rfind("#!", 0) == 0) continue;
    if (line.rfind("#SBATCH ", 0) != 0)
      throw ConfigError("--sbatch-file " + path + ": \"" + line +
                        "\": expected #SBATCH lines only");
    extra->push_back(line);
  }
}

void RefuseAnotherBuild(const std::string& config, const std::string& out, int shards,
                        const std::string& merged) {
  for (int i = 1; i <= shards; ++i) {
    const std::string shard = ShardPath(merged, {i, shards});
    if (i > 1 && !std::filesystem::exists(shard) && !std::filesystem::exists(shard + ".journal"))
      continue;
    (void)ReadHeld(PrepareSweep(config, out, {i, shards}));
  }
}

int SlurmMinutes(const std::string& text) {
  if (text == "UNLIMITED" || text == "infinite") return 1 << 30;
  int d = 0, a = 0, b = 0, c = 0, n = 0;
  char end = 0;
  const bool days = text.find('-') != std::string::npos;
  if (days && std::sscanf(text.c_str(), "%d-%d:%d:%d%c", &d, &a, &b, &c, &end) >= 2 && !end)
    return d * 1440 + a * 60 + b;
  if (days) return -1;
  n = std::sscanf(text.c_str(), "%d:%d:%d%c", &a, &b, &c, &end);
  if (end || n < 1 || a < 0) return -1;
  return n == 3 ? a * 60 + b : a;  // "M", "M:S" or "H:M:S"
}

void CheckTimeLines(const std::vector<std::string>& extra) {
  for (const std::string& line : extra) {
    std::istringstream words(line.substr(8));
    for (std::string w; words >> w;) {
      std::string value;
      if (w.rfind("--time=", 0) == 0)
        value = w.substr(7);
      else if (w == "--time" || w == "-t")
        words >> value;
      else if (w.rfind("-t", 0) == 0 && w.size() > 2 && w[2] != '-')
        value = w.substr(2);
      if (value.empty()) continue;
      const int minutes = SlurmMinutes(value);
      if (minutes < kMinTaskMinutes)
        throw ConfigError("\"" + line + "\": " +
                          (minutes < 0 ? "not a Slurm time" : "a time limit under the floor") +
                          " (at least " + std::to_string(kMinTaskMinutes) +
                          " minutes: a task is told to save up to 150 s before its limit; "
                          "--time MINUTES sets it)");
    }
  }
}

}  // namespace pmoe
