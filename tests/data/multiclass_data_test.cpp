// The multiclass data models (MODEL.md §7): equiangular patterns, l* per trained pair, refusals by
// name, and c = 2 through the multiclass code giving the binary model's data bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/class_pairs.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "pmoe/data/image_model.hpp"
#include "pmoe/data/pattern_model.hpp"

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
  const uint64_t expected[4] = {0x21b3f2fbcd92b7dbull, 0x3af18185147b48f7ull,
                                0x94d02afff5b134c4ull, 0xcc261844b1726d58ull};
  for (size_t s = 0; s < specs.size(); ++s) {
    specs[s].c = 2;
    PatternModel model(PlanPatternModel(specs[s]), 12345 + s);
    const Dataset train = model.Draw(Split::kTrain, 64);
    const Dataset test = model.Draw(Split::kTest, 16);
    const uint64_t got = Fingerprint(train) ^ (Fingerprint(test) * 31);
    std::printf("pattern fingerprint %zu: 0x%016llxull\n", s, (unsigned long long)got);
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
    std::printf("image fingerprint: 0x%016llxull\n", (unsigned long long)got);
    CHECK(got == expected);
  }
}

}  // namespace pmoe
