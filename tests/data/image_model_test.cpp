// Data model B composes samples as MODEL.md §3 says: one discriminative image at the recorded
// position, the others from irrelevant classes only, each split from its own file; and it runs
// every model on the real Fashion-MNIST files when they are installed.
#include "pmoe/data/image_model.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/idx_file.hpp"
#include "pmoe/trial/trial.hpp"
#include "support/idx_writer.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

// Six classes; every image's first pixel says its class and split (class*20 + 1, +10 in the
// test split), its second pixel its index: a patch tells where it came from.
std::string WriteMarkedDataset() {
  const std::string dir = test::FreshDirectory("image_marked");
  for (bool test_split : {false, true}) {
    IdxImages images;
    images.rows = images.cols = 2;
    std::vector<uint8_t> labels;
    for (int i = 0; i < 60; ++i) {
      const int label = i % 6;
      labels.push_back(static_cast<uint8_t>(label));
      for (uint8_t v :
           {uint8_t(label * 20 + 1 + (test_split ? 10 : 0)), uint8_t(i), uint8_t(7), uint8_t(9)})
        images.pixels.push_back(v);
    }
    images.count = 60;
    const std::string prefix = dir + (test_split ? "/t10k" : "/train");
    WriteIdxImages(prefix + "-images-idx3-ubyte", images, false);
    WriteIdxLabels(prefix + "-labels-idx1-ubyte", labels, false);
  }
  return dir;
}

int ClassOf(float first_pixel) { return static_cast<int>(std::lround(first_pixel * 255)) / 20; }
bool FromTest(float first_pixel) {
  return static_cast<int>(std::lround(first_pixel * 255)) % 20 > 10;
}

DataSpec MarkedSpec(const std::string& dir) {
  DataSpec spec;
  spec.idx_dir = dir;
  spec.n = 9;
  spec.class_pos = 2;
  spec.class_neg = 4;
  spec.irrelevant = "0,3,5";
  return spec;
}

}  // namespace

TEST_CASE("Image samples hold one discriminative image at the recorded position", "[data][image]") {
  const DataSpec spec = MarkedSpec(WriteMarkedDataset());
  ImageModel model(spec, SharedImageDataset(spec.idx_dir), /*seed=*/5);
  for (Split split : {Split::kTrain, Split::kTest}) {
    const Dataset data = model.Draw(split, 300);
    REQUIRE(data.d == 4);
    int positives = 0;
    for (int i = 0; i < data.size(); ++i) {
      positives += data.label[i] == 0;
      for (int j = 0; j < data.n; ++j) {
        const float first = data.x(i * data.n + j, 0);
        const int label = ClassOf(first);
        REQUIRE(FromTest(first) == (split == Split::kTest));  // each split from its own file
        if (j == data.disc_pos[i])
          REQUIRE(label == (data.label[i] == 0 ? 2 : 4));
        else
          REQUIRE((label == 0 || label == 3 || label == 5));
      }
    }
    CHECK(positives == Approx(150).margin(35));
  }
  const Dataset small = model.Draw(Split::kTrain, 20), large = model.Draw(Split::kTrain, 200);
  CHECK(small.x == large.x.topRows(small.x.rows()));  // prefix property
}

TEST_CASE("Impossible image data models are refused naming the problem", "[data][image]") {
  using Catch::Matchers::Contains;
  DataSpec spec = MarkedSpec(WriteMarkedDataset());
  const auto images = SharedImageDataset(spec.idx_dir);
  auto refusal = [&](const DataSpec& s) {
    try {
      PlanImageModel(s, *images);
    } catch (const InfeasibleError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  DataSpec not_square = spec;
  not_square.n = 8;
  CHECK_THAT(refusal(not_square), Contains("n = r*r") && Contains("n = 8"));
  DataSpec missing = spec;
  missing.class_neg = 7;
  CHECK_THAT(refusal(missing), Contains("class 7 has no images"));
  DataSpec overlap = spec;
  overlap.irrelevant = "0,2";
  CHECK_THAT(refusal(overlap), Contains("irrelevant class 2 is also a discriminative class"));
  DataSpec same = spec;
  same.class_neg = 2;
  CHECK_THAT(refusal(same), Contains("class_pos != class_neg"));
  CHECK(refusal(spec).empty());
  DataSpec everything_else = spec;
  everything_else.irrelevant = "";
  CHECK(PlanImageModel(everything_else, *images).irrelevant == std::vector<int>{0, 1, 3, 5});
}

TEST_CASE("Every model runs one trial on the installed Fashion-MNIST", "[data][image][fmnist]") {
  const std::string dir = DataSpec{}.idx_dir;
  if (!std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz")) {
    WARN("SKIPPED: Fashion-MNIST is not installed in "
         << dir << " (apt-get install dataset-fashion-mnist)");
    return;
  }
  for (const char* kind : {"separate", "joint", "cnn"}) {
    TrialSpec spec;
    spec.data.model = "image";
    spec.model.kind = kind;
    if (std::string(kind) == "joint") {
      SetParamValue(spec, "model.k", 4);
      SetParamValue(spec, "model.l", 4);
    }
    spec.N = 200;
    spec.N_test = 200;
    SetParamValue(spec, "model.epochs", 20);
    const TrialResult r = RunTrial(spec, 0, 1);
    INFO(kind << ": " << r.message << " train " << r.train_acc << " test " << r.test_acc);
    CHECK(r.status == TrialStatus::kOk);
    CHECK(r.train_acc > 0.6);  // it learned its training set well beyond chance
    CHECK((r.test_acc >= 0 && r.test_acc <= 1));
    CHECK(r.metrics.Get("realized_delta_d") > 0);
    CHECK(r.metrics.Get("realized_delta_d") < 1);
  }
}

}  // namespace pmoe
