// pmoe-bench's rule for "stable" and its CPU identity: a benchmark that calls a noisy series
// stable, or names the wrong CPU, puts figures in the log that the next run contradicts.
#include "../../sweeps/bench/speed/alternating_rounds.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "../../sweeps/bench/speed/cpu_identity.hpp"
#include "../../sweeps/bench/speed/memory_probe.hpp"

namespace pmoe {
namespace {

TEST_CASE("a steady series is stable and a drifting or noisy one is not", "[bench]") {
  const StabilityRule rule{5, 0.03};
  CHECK(IsStable({1.00, 1.01, 0.99, 1.00, 1.01, 0.99}, rule));
  // Too few rounds, however steady.
  CHECK_FALSE(IsStable({1.0, 1.0, 1.0, 1.0}, rule));
  // Every other round slowed by another job: the two halves disagree by 20 %.
  CHECK_FALSE(IsStable({1.0, 1.2, 1.0, 1.2, 1.0, 1.2}, rule));
  CHECK(HalvesDisagreement({1.0, 1.2, 1.0, 1.2, 1.0, 1.2}) == Approx(0.2 / 1.1));
  // One outlier does not move a median: still stable.
  CHECK(IsStable({1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 1.01}, rule));
  CHECK(RelativeRange({1.0, 1.0, 3.0, 1.0, 1.0}) == Approx(2.0));
  CHECK_FALSE(IsStable({}, rule));
}

TEST_CASE("the CPU is named as lscpu names it, from the first processor", "[bench]") {
  const auto path = std::filesystem::temp_directory_path() / "pmoe-bench-cpuinfo-test";
  {
    std::ofstream out(path);
    out << "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
           "model name\t: AMD EPYC\nstepping\t: 1\n\n"
           "processor\t: 1\nvendor_id\t: Other\ncpu family\t: 6\nmodel\t\t: 207\n"
           "model name\t: Not this one\n\n";
  }
  const CpuIdentity cpu = ReadCpuIdentity(path.string());
  std::filesystem::remove(path);
  CHECK(cpu.model_name == "AMD EPYC");
  CHECK(cpu.vendor == "AuthenticAMD");
  CHECK(cpu.family == "26");
  CHECK(cpu.model == "2");
  CHECK(cpu.logical_cpus == 2);
  CHECK(cpu.Describe() == "AMD EPYC (AuthenticAMD, family 26, model 2, 2 logical CPUs)");
  // No /proc/cpuinfo (another OS): said, not guessed.
  CHECK(ReadCpuIdentity("/nonexistent/cpuinfo").model_name == "unknown");
}

}  // namespace
// The memory probe's chase: one cycle through every element (a shorter cycle would settle in
// the cache and read as fast memory), in an order that is not the buffer's.
TEST_CASE("the memory probe's chase visits every element once", "[bench]") {
  for (size_t n : {1, 2, 3, 1000, 65536}) {
    const std::vector<uint32_t> next = RandomCycle(n, 7);
    std::vector<bool> seen(n, false);
    uint32_t at = 0;
    size_t steps = 0;
    do {
      REQUIRE(at < n);
      REQUIRE_FALSE(seen[at]);
      seen[at] = true;
      at = next[at];
      ++steps;
    } while (at != 0 && steps <= n);
    CHECK(steps == n);
    if (n >= 1000) {
      size_t in_order = 0;
      for (size_t i = 0; i + 1 < n; ++i) in_order += next[i] == i + 1;
      CHECK(in_order < n / 100);
    }
  }
}

}  // namespace pmoe
