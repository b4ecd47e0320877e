// Which CPU a benchmark ran on, as lscpu names it (model name, family, model: read from
// /proc/cpuinfo, where lscpu reads them), so that figures from several machines can be kept side by
// side (docs/results/benchmarks.md). Kernels tuned on one CPU family can run at half the speed on
// another: a figure without its CPU is not comparable.
#pragma once

#include <fstream>
#include <string>

namespace pmoe {

struct CpuIdentity {
  std::string vendor = "unknown", model_name = "unknown", family = "?", model = "?";
  int logical_cpus = 0;
  std::string Describe() const {
    return model_name + " (" + vendor + ", family " + family + ", model " + model + ", " +
           std::to_string(logical_cpus) + " logical CPUs)";
  }
};

inline CpuIdentity ReadCpuIdentity(const std::string& path = "/proc/cpuinfo") {
  CpuIdentity cpu;
  std::ifstream in(path);
  bool first_seen = false;  // fields of the first processor only; count every processor
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    std::string value = colon + 1 < line.size() ? line.substr(colon + 1) : "";
    value.erase(0, value.find_first_not_of(" \t"));
    if (key == "processor") {
      ++cpu.logical_cpus;
      first_seen = cpu.logical_cpus > 1;
    }
    if (first_seen) continue;
    if (key == "vendor_id") cpu.vendor = value;
    if (key == "model name") cpu.model_name = value;
    if (key == "cpu family") cpu.family = value;
    if (key == "model") cpu.model = value;
  }
  return cpu;
}

}  // namespace pmoe
