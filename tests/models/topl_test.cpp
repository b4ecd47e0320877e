// Top-l routing: the l largest values, in descending order, ties to the lower patch index.
#include "pmoe/models/topl.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <vector>

#include "pmoe/core/rng.hpp"
#include "pmoe/models/kernel_path.hpp"

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

TEST_CASE("TopLAllExperts equals TopL expert by expert", "[topl][portable]") {
  const KernelPath before = ActiveKernelPath();
  for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2, KernelPath::kPortable}) {
    if (!CpuRuns(path)) continue;
    ForceKernelPath(path);
    INFO(KernelPathName(path));
    Rng rng(5);
    // Every expert count of the vector paths (1-2 one expert at a time, 3-8 and 9-16 in lanes,
    // more one at a time again; 3-8 in lanes on AVX2), n = 16 (fully unrolled) and any n up to
    // 20 (scalar past 16).
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
  ForceKernelPath(before);
}

TEST_CASE("AVX2's top-l routes are AVX-512's, NaN scores included", "[topl][portable]") {
  // With a NaN the ranks collide and the vector rule (the lowest patch of each rank, patch 0 for
  // a rank no patch has) departs from the scalar one; the two vector paths must still agree.
  if (!CpuRuns(KernelPath::kAvx512)) {
    WARN("SKIPPED: this CPU has no AVX-512 to compare the AVX2 routes with");
    return;
  }
  const KernelPath before = ActiveKernelPath();
  Rng rng(8);
  for (int rep = 0; rep < 300; ++rep) {
    const int n = rep % 2 == 0 ? 16 : 1 + rng.Below(16), k = 3 + rep % 6;
    const int l = 1 + rng.Below(n);
    std::vector<float> scores(n * k);
    for (auto& x : scores) x = static_cast<float>(rng.Below(4));
    for (int bad = 0; bad < 1 + rep % 3; ++bad) scores[rng.Below(n * k)] = NAN;
    std::vector<int> wide(k * l, -1), narrow(k * l, -2);
    ForceKernelPath(KernelPath::kAvx512);
    TopLAllExperts(scores.data(), n, k, l, wide.data());
    ForceKernelPath(KernelPath::kAvx2);
    TopLAllExperts(scores.data(), n, k, l, narrow.data());
    INFO("n = " << n << ", k = " << k << ", l = " << l);
    REQUIRE(narrow == wide);
  }
  ForceKernelPath(before);
}

// Two samples per vector (AVX-512, 3-8 experts) give each sample's routes as one at a time does,
// ties and NaN scores included, for odd and even sample counts and every expert count.
TEST_CASE("TopLSamples equals TopLAllExperts sample by sample", "[topl][portable]") {
  const KernelPath before = ActiveKernelPath();
  for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2, KernelPath::kPortable}) {
    if (!CpuRuns(path)) continue;
    ForceKernelPath(path);
    INFO(KernelPathName(path));
    Rng rng(12);
    for (int rep = 0; rep < 400; ++rep) {
      const int n = rep % 3 == 0 ? 16 : 1 + rng.Below(16), k = 1 + rep % 12;
      const int l = 1 + rng.Below(n), samples = 1 + rng.Below(6);
      std::vector<float> scores(samples * n * k);
      for (auto& x : scores) x = static_cast<float>(rng.Below(4));  // many ties
      if (rep % 5 == 0) scores[rng.Below(samples * n * k)] = NAN;
      // A NaN may leave a slot of the scalar rule unwritten: the same one either way.
      std::vector<int> batch(samples * k * l, -1), single(samples * k * l, -1);
      TopLSamples(scores.data(), samples, n, k, l, batch.data());
      for (int i = 0; i < samples; ++i)
        TopLAllExperts(scores.data() + i * n * k, n, k, l, single.data() + i * k * l);
      INFO("n = " << n << ", k = " << k << ", l = " << l << ", samples = " << samples);
      REQUIRE(batch == single);
    }
  }
  ForceKernelPath(before);
}

}  // namespace pmoe
