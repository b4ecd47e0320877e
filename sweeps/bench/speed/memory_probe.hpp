// The machine's memory as the trials meet it. On a shared virtual machine the FMA peak can hold
// while everything that touches memory slows by a quarter for minutes at a time (measured on
// the 2-core Zen 5 machines: dependent loads 176 -> 203 ns, reads 38-44 -> 21-25 GB/s, a
// separate-pMoE trial 0.0115 -> 0.0154 s). pmoe-bench measures this beside the FMA peak in every
// round, so that two runs' figures can be seen to come from the same machine state or not.
#pragma once

#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

namespace pmoe {

// next[i] for a single cycle through 0..n-1 in random order (Sattolo's shuffle): following it
// from any element visits every element once, so no chase settles into a small, cached loop.
inline std::vector<uint32_t> RandomCycle(size_t n, uint64_t seed) {
  std::vector<uint32_t> order(n), next(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  for (size_t i = n - 1; i > 0 && n > 1; --i)
    std::swap(order[i], order[std::uniform_int_distribution<size_t>(0, i - 1)(rng)]);
  for (size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  return next;
}

struct MemoryReading {
  double load_ns = 0;   // one dependent load at a random place in the buffer
  double read_gbs = 0;  // reading the whole buffer in order
};

class MemoryProbe {
 public:
  explicit MemoryProbe(size_t bytes = size_t{64} << 20);  // larger than the caches
  MemoryReading Measure();

 private:
  std::vector<uint32_t> next_;  // one cycle through every element, in random order
  uint32_t at_ = 0;
  volatile uint64_t sink_ = 0;
};

}  // namespace pmoe
