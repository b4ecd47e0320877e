// The multiclass data models (MODEL.md §7): equiangular patterns, l* per trained pair, refusals by
// name, and c = 2 through the multiclass code giving the binary model's data bit for bit.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/class_pairs.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "pmoe/data/image_model.hpp"
#include "pmoe/data/pattern_model.hpp"
#include "pmoe/io/idx_file.hpp"
#include "support/idx_writer.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

// FNV-1a over the bytes of everything a drawn data set holds.
uint64_t Fingerprint(const Dataset& data) {
  uint64_t h = 1469598103934665603ull;
  auto add = [&](const void* p, size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < bytes; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  add(data.x.data(), sizeof(float) * data.x.size());
  add(data.label.data(), sizeof(int) * data.label.size());
  add(data.disc_pos.data(), sizeof(int) * data.disc_pos.size());
  add(data.pattern_scores.data(), sizeof(float) * data.pattern_scores.size());
  return h;
}

}  // namespace

// The fingerprints were taken from the binary-only generator before the multiclass code replaced
// it (main at 4d18ec4): with c = 2 the general code must still draw exactly those bits.
TEST_CASE("c = 2 through the multiclass pattern model gives the binary data bit for bit",
          "[data][multiclass]") {
  std::vector<DataSpec> specs(4);
  specs[1].labels = "balanced";
  specs[2].confusers = "uniform";
  specs[3].noise = 0.1;
  specs[3].n = 9;
  specs[3].d = 17;  // odd d: the per-position normal streams
  const uint64_t expected[4] = {0x21b3f2fbcd92b7dbull, 0x3af18185147b48f7ull, 0x94d02afff5b134c4ull,
                                0xcc261844b1726d58ull};
  for (size_t s = 0; s < specs.size(); ++s) {
    specs[s].c = 2;
    PatternModel model(PlanPatternModel(specs[s]), 12345 + s);
    const Dataset train = model.Draw(Split::kTrain, 64);
    const Dataset test = model.Draw(Split::kTest, 16);
    const uint64_t got = Fingerprint(train) ^ (Fingerprint(test) * 31);
    INFO("spec " << s << ": fingerprint " << std::hex << got);
    CHECK(got == expected[s]);
  }
}

}  // namespace pmoe

namespace pmoe {

// The same for data model B on the installed Fashion-MNIST: data.classes = "0,1" is the binary
// class_pos = 0, class_neg = 1, and both still draw the bits of the binary-only code.
TEST_CASE("c = 2 through the multiclass image model gives the binary data bit for bit",
          "[data][image][multiclass][fmnist]") {
  const std::string dir = DataSpec{}.idx_dir;
  if (!std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz")) {
    WARN("Fashion-MNIST is not installed at " << dir << " (apt-get install dataset-fashion-mnist)");
    return;
  }
  DataSpec binary;
  binary.irrelevant = "2,3,4,5";
  DataSpec listed = binary;
  listed.classes = "0,1";
  const uint64_t expected = 0x501b31d5a5c4a63bull;
  for (const DataSpec* spec : {&binary, &listed}) {
    ImageModel model(*spec, SharedImageDataset(dir), 777);
    const uint64_t got = Fingerprint(model.Draw(Split::kTrain, 40)) ^
                         (Fingerprint(model.Draw(Split::kTest, 10)) * 31);
    INFO("fingerprint " << std::hex << got);
    CHECK(got == expected);
  }
}

}  // namespace pmoe

namespace pmoe {
namespace {

DataSpec Classes(int c) {
  DataSpec spec;
  spec.c = c;
  spec.p = 2 * c + 2;  // a confuser set toward each side of every pair, and neutral ones
  spec.d = 64;
  return spec;
}

// The number of patches of sample i that are delta'-closer to one side of the pair (a, b).
int CloserPatches(const Dataset& data, int i, const PatternModel& model, int a, int b,
                  double dprime) {
  const Vecd diff = model.pattern(a) - model.pattern(b);
  int closer = 0;
  for (int j = 0; j < data.n; ++j)
    if (j != data.disc_pos[i] &&
        std::abs(diff.dot(data.x.row(i * data.n + j).cast<double>().transpose())) > dprime)
      ++closer;
  return closer;
}

}  // namespace

TEST_CASE("The c discriminative patterns are exactly equiangular at delta_d",
          "[data][multiclass]") {
  for (int c : {3, 4, 5, 8}) {
    for (double delta_d : {0.2, 0.0, -0.9 / (c - 1), 0.6}) {
      DataSpec spec = Classes(c);
      spec.delta_d = delta_d;
      spec.delta_r = (1 - delta_d) / 2 + 0.15;  // strong confusers, feasible for every delta_d
      const PatternPlan plan = PlanPatternModel(spec);
      for (uint64_t seed = 0; seed < 25; ++seed) {
        PatternModel model(plan, seed);
        INFO("c=" << c << " delta_d=" << delta_d << " seed=" << seed);
        for (int i = 0; i < c; ++i) {
          REQUIRE(model.pattern(i).norm() == Approx(1.0).margin(1e-12));
          for (int j = 0; j < i; ++j)
            REQUIRE(model.pattern(i).dot(model.pattern(j)) == Approx(delta_d).margin(1e-12));
          // Every set center is at most delta_r - radius from every pattern.
          for (int set = 0; set < spec.p; ++set)
            REQUIRE(std::abs(model.centers().row(set).dot(model.pattern(i))) <=
                    spec.delta_r - spec.radius + 1e-12);
        }
      }
    }
  }
}

TEST_CASE("Realized l* of every trained pair is the asked one with K = l* - 1",
          "[data][multiclass]") {
  for (int c : {3, 4, 7}) {
    for (int l_star : {1, 3, 5}) {
      DataSpec spec = Classes(c);
      spec.l_star = l_star;
      const PatternPlan plan = PlanPatternModel(spec);
      const auto pairs = RouterPairs(c);
      for (uint64_t seed = 0; seed < 6; ++seed) {
        PatternModel model(plan, seed);
        const Dataset train = model.Draw(Split::kTrain, 400);
        const Dataset test = model.Draw(Split::kTest, 100);
        const RealizedStats stats = model.Measure(train, test);
        INFO("c=" << c << " l*=" << l_star << " seed=" << seed);
        REQUIRE(stats.l_star == l_star);
        REQUIRE(stats.pair_l_star.size() == pairs.size());
        REQUIRE(stats.delta_d == Approx(spec.delta_d).margin(1e-6));
        REQUIRE(stats.delta_r <= spec.delta_r + 1e-6);
        std::vector<int> classes_seen(c, 0);
        for (size_t q = 0; q < pairs.size(); ++q) {
          REQUIRE(stats.pair_l_star[q] == l_star);
          // Recounted here from the patterns, independently of Measure: no sample exceeds K
          // closer patches for the pair, and some sample has exactly K.
          int most = 0;
          for (int i = 0; i < train.size(); ++i)
            most = std::max(
                most, CloserPatches(train, i, model, pairs[q].first, pairs[q].second, plan.dprime));
          REQUIRE(most == l_star - 1);
        }
        for (int label : train.label) ++classes_seen.at(label);
        for (int count : classes_seen) REQUIRE(count > 400 / c / 2);  // labels uniform over c
      }
    }
  }
}

TEST_CASE("Infeasible multiclass pattern models are refused naming the inequality",
          "[data][multiclass]") {
  auto refusal = [](const DataSpec& spec) {
    try {
      PlanPatternModel(spec);
    } catch (const InfeasibleError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  using Catch::Matchers::Contains;
  DataSpec obtuse = Classes(5);
  obtuse.delta_d = -0.3;  // below -1/(c - 1) = -0.25
  CHECK_THAT(refusal(obtuse), Contains("delta_d >= -1/(c - 1)") && Contains("c = 5"));
  DataSpec narrow = Classes(8);
  narrow.d = 20;  // p + c = 26
  CHECK_THAT(refusal(narrow), Contains("d >= p + c") && Contains("d = 20"));
  DataSpec few = Classes(6);
  few.p_confuser = 4;  // three pairs need six
  CHECK_THAT(refusal(few), Contains("p_confuser >= 2 * pairs") && Contains("p_confuser = 4"));
  DataSpec close = Classes(4);
  close.delta_r = 0.25;  // no room for a confuser toward either class of a pair
  CHECK_THAT(refusal(close), Contains("delta_r > (1 - delta_d)/4"));
  DataSpec fine = Classes(4);
  fine.delta_d = -1.0 / 3.0;  // exactly -1/(c - 1): a regular simplex, still feasible
  fine.delta_r = 0.75;
  CHECK(refusal(fine) == "accepted");
}

}  // namespace pmoe

namespace pmoe {
namespace {

// Six classes of 2x2 images; the first pixel tells an image's class (class*20 + 1).
std::string WriteSixClasses() {
  const std::string dir = test::FreshDirectory("image_multiclass");
  for (bool test_split : {false, true}) {
    IdxImages images;
    images.rows = images.cols = 2;
    std::vector<uint8_t> labels;
    for (int i = 0; i < 60; ++i) {
      const int label = i % 6;
      labels.push_back(static_cast<uint8_t>(label));
      for (uint8_t v : {uint8_t(label * 20 + 1), uint8_t(i), uint8_t(7), uint8_t(9)})
        images.pixels.push_back(v);
    }
    images.count = 60;
    const std::string prefix = dir + (test_split ? "/t10k" : "/train");
    WriteIdxImages(prefix + "-images-idx3-ubyte", images, false);
    WriteIdxLabels(prefix + "-labels-idx1-ubyte", labels, false);
  }
  return dir;
}

}  // namespace

TEST_CASE("Image data with c classes: label i shows the i-th listed class, and bad lists refused",
          "[data][image][multiclass]") {
  DataSpec spec;
  spec.idx_dir = WriteSixClasses();
  spec.n = 4;
  spec.classes = "4,1,5";
  spec.irrelevant = "0,2";
  ImageModel model(spec, SharedImageDataset(spec.idx_dir), 3);
  const Dataset data = model.Draw(Split::kTrain, 300);
  REQUIRE(data.classes == 3);
  const int listed[3] = {4, 1, 5};
  std::vector<int> seen(3, 0);
  for (int i = 0; i < data.size(); ++i) {
    ++seen.at(data.label[i]);
    for (int j = 0; j < data.n; ++j) {
      const int image_class = static_cast<int>(std::lround(data.x(i * data.n + j, 0) * 255)) / 20;
      if (j == data.disc_pos[i])
        REQUIRE(image_class == listed[data.label[i]]);
      else
        REQUIRE((image_class == 0 || image_class == 2));
    }
  }
  for (int count : seen) CHECK(count > 60);  // uniform over the three classes
  const RealizedStats stats = model.Measure(data, model.Draw(Split::kTest, 50));
  CHECK(stats.pair_l_star.size() == 2);  // pairs (4,1) and (5,4)

  auto refusal = [&](const DataSpec& s) {
    try {
      PlanImageModel(s, *SharedImageDataset(s.idx_dir));
    } catch (const InfeasibleError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  using Catch::Matchers::Contains;
  DataSpec twice = spec;
  twice.classes = "4,1,4";
  CHECK_THAT(refusal(twice), Contains("data.classes distinct") && Contains("class 4 twice"));
  DataSpec one = spec;
  one.classes = "3";
  CHECK_THAT(refusal(one), Contains("at least two"));
  DataSpec absent = spec;
  absent.classes = "4,1,9";
  CHECK_THAT(refusal(absent), Contains("class 9 has no images"));
  DataSpec overlap = spec;
  overlap.irrelevant = "0,5";
  CHECK_THAT(refusal(overlap), Contains("irrelevant class 5 is also a discriminative class"));
  DataSpec words = spec;
  words.classes = "4,one";
  CHECK_THAT(refusal(words), Contains("data.classes = \"4,one\""));
  DataSpec others = spec;
  others.irrelevant = "";
  CHECK(PlanImageModel(others, *SharedImageDataset(others.idx_dir)).irrelevant ==
        std::vector<int>{0, 2, 3});
}

}  // namespace pmoe
