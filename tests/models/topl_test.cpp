// Top-l routing: the l largest values, in descending order, ties to the lower patch index.
#include "pmoe/models/topl.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

#include "pmoe/core/rng.hpp"

namespace pmoe {

TEST_CASE("TopL breaks ties by lower index", "[topl]") {
  const float v[] = {1, 3, 3, 0, 3, 2};
  int out[4];
  TopL(v, 1, 6, 4, out);
  CHECK(std::vector<int>(out, out + 4) == std::vector<int>{1, 2, 4, 5});
}

TEST_CASE("TopL agrees with a stable sort on random strided data", "[topl]") {
  Rng rng(3);
  for (int rep = 0; rep < 500; ++rep) {
    const int n = 1 + rng.Below(20), l = 1 + rng.Below(n), stride = 1 + rng.Below(3);
    std::vector<double> v(n * stride);
    for (auto& x : v) x = rng.Below(5);  // many ties
    int out[20];
    TopL(v.data(), stride, n, l, out);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return v[a * stride] > v[b * stride]; });
    order.resize(l);
    REQUIRE(std::vector<int>(out, out + l) == order);
  }
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("TopLAllExperts equals TopL expert by expert", "[topl]") {
  Rng rng(5);
  // Every expert count of the vector paths (1-2 one expert at a time, 3-8 and 9-16 in lanes,
  // more one at a time again), n = 16 (fully unrolled) and any n up to 20 (scalar past 16).
  for (int rep = 0; rep < 600; ++rep) {
    const int n = rep % 3 == 0 ? 16 : 1 + rng.Below(20), k = 1 + rep % 20;
    const int l = 1 + rng.Below(n);
    std::vector<float> scores(n * k);
    for (auto& x : scores) x = static_cast<float>(rng.Below(4));  // many ties
    std::vector<int> all(k * l), one(l);
    TopLAllExperts(scores.data(), n, k, l, all.data());
    for (int s = 0; s < k; ++s) {
      TopL(scores.data() + s, k, n, l, one.data());
      REQUIRE(std::vector<int>(all.begin() + s * l, all.begin() + (s + 1) * l) == one);
    }
  }
}

}  // namespace pmoe
