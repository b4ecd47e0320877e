// Grid axes: every spelling of DESIGN.md gives the values a user expects; bad ones are refused.
#include "pmoe/sweep/grid/axis.hpp"

#include <catch2/catch.hpp>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

std::vector<std::string> Values(const std::string& name, const std::string& text) {
  return ParseAxis("t.ini", name, text).values;
}

}  // namespace

TEST_CASE("Axes parse ranges lists and geometric series", "[sweep][axis]") {
  using V = std::vector<std::string>;
  CHECK(Values("model.l", "1:4") == V{"1", "2", "3", "4"});
  CHECK(Values("N", "100:500:200") == V{"100", "300", "500"});
  CHECK(Values("N", "100:600:200") == V{"100", "300", "500"});
  CHECK(Values("data.delta_r", "0.3:0.6:0.1") == V{"0.3", "0.4", "0.5", "0.6"});
  CHECK(Values("N", "100..3200 x2") == V{"100", "200", "400", "800", "1600", "3200"});
  CHECK(Values("N", "100..1000 x3") == V{"100", "300", "900"});
  CHECK(Values("model.lr", "0.01..1 x10") == V{"0.01", "0.1", "1"});
  CHECK(Values("model.kind", "separate, cnn") == V{"separate", "cnn"});
  CHECK(Values("model.l", "1,2,4,8") == V{"1", "2", "4", "8"});
  CHECK(Values("model.l", "5") == V{"5"});
}

TEST_CASE("Malformed axes are refused naming the key and the accepted forms", "[sweep][axis]") {
  using Catch::Matchers::Contains;
  for (const char* bad : {"8:1", "1:8:0", "1:8:-1", "a:b", "1:2:3:4", "0..100 x2", "1..100 x1",
                          "1,,2", "100..10 x2"}) {
    INFO(bad);
    CHECK_THROWS_WITH(ParseAxis("t.ini", "N", bad),
                      Contains("t.ini") && Contains("grid.N") && Contains("a:b:step"));
  }
  CHECK_THROWS_WITH(ParseAxis("t.ini", "model.width", "1:2"),
                    Contains("model.width") && Contains("not a parameter"));
}

}  // namespace pmoe

namespace pmoe {

TEST_CASE("Geometric series of integer parameters land on integers", "[sweep][axis]") {
  using V = std::vector<std::string>;
  // The example: x1.414 from 16 to 1024, rounded, no value twice, and it says so.
  const Axis n = ParseAxis("t.ini", "N", "16..1024 x1.414");
  CHECK(n.values ==
        V{"16", "23", "32", "45", "64", "90", "128", "181", "256", "362", "511", "723", "1022"});
  CHECK_THAT(n.note, Catch::Matchers::Contains("rounded to integers"));
  // Small values round onto each other: duplicates dropped, order kept.
  CHECK(Values("model.l", "1..8 x1.2") == V{"1", "2", "3", "4", "5", "6", "7"});
  // Already integral: no note; a real parameter keeps its exact terms.
  CHECK(ParseAxis("t.ini", "N", "100..800 x2").note.empty());
  CHECK(Values("model.lr", "1..4 x1.5") == V{"1", "1.5", "2.25", "3.375"});
}

}  // namespace pmoe
