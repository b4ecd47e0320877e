// What every data model shares about drawing one sample: its own random stream, derived from
// (data seed, split, index) so that a smaller draw is a prefix of a larger one, and a uniform
// placement of its patches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "pmoe/core/rng.hpp"
#include "pmoe/data/dataset.hpp"

namespace pmoe {

inline constexpr int kMaxPatches = 1024;

inline Rng SampleStream(uint64_t data_seed, Split split, int index) {
  return Rng(CombineSeed(CombineSeed(data_seed, 1 + static_cast<uint64_t>(split)),
                         static_cast<uint64_t>(index)));
}

// row_of[slot] for slots 0..n-1: a uniform random permutation (Fisher-Yates), so the patch of
// slot 0 (the discriminative one, by convention) lands at a uniform position.
inline void PlaceSlots(int n, Rng& rng, int* row_of) {
  std::iota(row_of, row_of + n, 0);
  for (int i = n - 1; i > 0; --i) std::swap(row_of[i], row_of[rng.Below(i + 1)]);
}

}  // namespace pmoe
