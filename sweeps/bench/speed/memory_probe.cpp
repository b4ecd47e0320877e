// A dependent-load chase over one random cycle and an in-order read of the same buffer
// (memory_probe.hpp).
#include "memory_probe.hpp"

#include <chrono>
#include <numeric>

namespace pmoe {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

MemoryProbe::MemoryProbe(size_t bytes) : next_(RandomCycle(bytes / sizeof(uint32_t), 20261127)) {
  Measure();  // the first chase after the buffer is written reads 3-4x slower: not a reading
}

MemoryReading MemoryProbe::Measure() {
  MemoryReading reading;
  constexpr int kLoads = 200000;  // about 40 ms
  auto start = std::chrono::steady_clock::now();
  uint32_t at = at_;
  for (int i = 0; i < kLoads; ++i) at = next_[at];
  reading.load_ns = SecondsSince(start) / kLoads * 1e9;
  at_ = at;  // kept, so that the chase is not optimized away and goes on from there next time
  start = std::chrono::steady_clock::now();
  sink_ = std::accumulate(next_.begin(), next_.end(), uint64_t{0});  // volatile: really read
  reading.read_gbs =
      static_cast<double>(next_.size() * sizeof(uint32_t)) / SecondsSince(start) / 1e9;
  return reading;
}

}  // namespace pmoe
