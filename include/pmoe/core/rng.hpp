// Explicit random state for every draw the simulator makes (STYLE.md §9). xoshiro256** seeded by
// splitmix64: fast, reproducible bit for bit on any platform, and cheap to create per sample, so
// each sample can own a stream derived from (data seed, split, index).
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace pmoe {

// splitmix64 finalizer: a bijective 64-bit mixer.
inline uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Combines a seed with one more value into a new, well-mixed seed.
inline uint64_t CombineSeed(uint64_t seed, uint64_t value) {
  return Mix64(seed ^ Mix64(value + 0x632be59bd9b4e019ULL));
}

// FNV-1a over the bytes of a string, then mixed: seeds derived from canonical parameter keys.
inline uint64_t HashString(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return Mix64(h);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& word : s_) word = seed = Mix64(seed);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform on [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, bound), bound >= 1 (Lemire's multiply-shift; bias < 2^-32 for our
  // sizes).
  uint32_t Below(uint32_t bound) {
    return static_cast<uint32_t>(((Next() >> 32) * static_cast<uint64_t>(bound)) >> 32);
  }

  bool Coin() { return (Next() >> 63) != 0; }

  // Standard normal by Box-Muller; the second value of each pair is kept for the next call.
  double Normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - Uniform();  // in (0, 1]: log stays finite
    const double u2 = Uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 6.283185307179586476925 * u2;
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4];
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace pmoe
