// The test-set cache keeps a set while announced trials still want it, drops it after the last,
// and never holds more than its budget.
#include "pmoe/trial/test_set_cache.hpp"

#include <catch2/catch.hpp>

namespace pmoe {
namespace {

Dataset SetOf(int samples, float value) {
  Dataset set;
  set.n = 2;
  set.d = 3;
  set.x = RowMatf::Constant(samples * set.n, set.d, value);
  set.label.assign(samples, 0);
  set.disc_pos.assign(samples, 0);
  return set;
}

}  // namespace

TEST_CASE("The test-set cache drops a set after its last announced use", "[trial][cache]") {
  TestSetCache cache(size_t{1} << 20);
  const Dataset set = SetOf(10, 0.5f);
  cache.ExpectUses("data.n=2", 7, 10, 3);
  REQUIRE(cache.Find("data.n=2", 7, 10) == nullptr);  // use 1: drawn, then offered
  cache.Offer("data.n=2", 7, set);
  CHECK(cache.counts().bytes == DatasetBytes(set));
  const auto second = cache.Find("data.n=2", 7, 10);  // use 2
  REQUIRE(second != nullptr);
  CHECK(second->x == set.x);
  CHECK(cache.counts().bytes == DatasetBytes(set));
  const auto third = cache.Find("data.n=2", 7, 10);  // use 3, the last: dropped from the cache
  REQUIRE(third != nullptr);
  CHECK(third->x == set.x);  // still whole for the trial holding it
  CHECK(cache.counts().bytes == 0);
  CHECK(cache.counts().hits == 2);
  CHECK(cache.counts().kept == 1);
  CHECK(cache.counts().peak_bytes == DatasetBytes(set));

  cache.ExpectUses("data.n=2", 8, 10, 1);  // wanted once: not worth keeping
  REQUIRE(cache.Find("data.n=2", 8, 10) == nullptr);
  cache.Offer("data.n=2", 8, set);
  CHECK(cache.counts().kept == 1);
  CHECK(cache.counts().bytes == 0);
}

TEST_CASE("The test-set cache keeps unannounced sets while its budget has room", "[trial][cache]") {
  const Dataset set = SetOf(10, 1.0f);
  TestSetCache cache(2 * DatasetBytes(set) + 1);
  for (uint64_t seed = 1; seed <= 3; ++seed) cache.Offer("data.n=2", seed, set);
  CHECK(cache.counts().kept == 2);  // the third did not fit
  CHECK(cache.counts().bytes == 2 * DatasetBytes(set));
  CHECK(cache.Find("data.n=2", 1, 10) != nullptr);
  CHECK(cache.Find("data.n=2", 3, 10) == nullptr);
  CHECK(cache.Find("data.n=2", 1, 20) == nullptr);       // another sample count
  CHECK(cache.Find("data.n=3", 1, 10) == nullptr);       // other data parameters
  CHECK(cache.counts().bytes == 2 * DatasetBytes(set));  // unannounced: never dropped
}

}  // namespace pmoe
