// The IDX reader on files the test writes itself: exact round trips, plain and gzip; truncated
// files, wrong magic numbers, trailing bytes and image/label count mismatches refused by name.
#include "pmoe/io/idx_file.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "support/idx_writer.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

IdxImages SomeImages(int count) {
  IdxImages images;
  images.count = count;
  images.rows = 3;
  images.cols = 2;
  for (int i = 0; i < count * 6; ++i) images.pixels.push_back(static_cast<uint8_t>(i * 7));
  return images;
}

// The four files of a data set directory, plain or gzip.
void WriteSplits(const std::string& dir, bool gzip, int train_images, int train_labels) {
  const std::string ext = gzip ? ".gz" : "";
  WriteIdxImages(dir + "/train-images-idx3-ubyte" + ext, SomeImages(train_images), gzip);
  WriteIdxLabels(dir + "/train-labels-idx1-ubyte" + ext, std::vector<uint8_t>(train_labels, 1),
                 gzip);
  WriteIdxImages(dir + "/t10k-images-idx3-ubyte" + ext, SomeImages(3), gzip);
  WriteIdxLabels(dir + "/t10k-labels-idx1-ubyte" + ext, {0, 1, 2}, gzip);
}

}  // namespace

TEST_CASE("IDX files round-trip plain and gzip-compressed", "[idx]") {
  const std::string dir = test::FreshDirectory("idx_roundtrip");
  for (bool gzip : {false, true}) {
    const std::string path = dir + (gzip ? "/img.gz" : "/img");
    WriteIdxImages(path, SomeImages(5), gzip);
    const IdxImages back = ReadIdxImages(path);
    CHECK(back.count == 5);
    CHECK(back.rows == 3);
    CHECK(back.cols == 2);
    CHECK(back.pixels == SomeImages(5).pixels);
    WriteIdxLabels(path + ".labels", {3, 1, 4, 1, 5}, gzip);
    CHECK(ReadIdxLabels(path + ".labels") == std::vector<uint8_t>{3, 1, 4, 1, 5});
  }
  WriteSplits(dir, /*gzip=*/true, 4, 4);
  const ImageDataset data = LoadImageDataset(dir);
  CHECK(data.train.count == 4);
  CHECK(data.test.count == 3);
  CHECK(data.rows * data.cols == 6);
  CHECK(data.classes == 3);
  CHECK(data.test.by_class[2] == std::vector<int>{2});
}

TEST_CASE("Bad IDX files are refused naming the file and the problem", "[idx]") {
  const std::string dir = test::FreshDirectory("idx_bad");
  const std::string path = dir + "/img";
  WriteIdxImages(path, SomeImages(5), false);
  const auto size = std::filesystem::file_size(path);

  SECTION("truncated pixels") {
    std::filesystem::resize_file(path, size - 4);
    CHECK_THROWS_WITH(ReadIdxImages(path),
                      Contains(path) && Contains("truncated") && Contains("26 of 30 bytes"));
  }
  SECTION("truncated header") {
    std::filesystem::resize_file(path, 6);
    CHECK_THROWS_WITH(ReadIdxImages(path), Contains("truncated"));
  }
  SECTION("labels read as images: wrong magic") {
    WriteIdxLabels(path, {1, 2}, false);
    CHECK_THROWS_WITH(ReadIdxImages(path), Contains(path) &&
                                               Contains("wrong magic number "
                                                        "0x00000801") &&
                                               Contains("expected 0x00000803"));
  }
  SECTION("not an IDX file at all") {
    std::ofstream(path) << "P5 28 28 255\n";
    CHECK_THROWS_WITH(ReadIdxImages(path), Contains("wrong magic number"));
  }
  SECTION("trailing bytes") {
    std::ofstream(path, std::ios::app) << "xyz";
    CHECK_THROWS_WITH(ReadIdxImages(path), Contains("longer than its header says"));
  }
  SECTION("image and label counts disagree") {
    WriteSplits(dir, false, 4, 5);
    CHECK_THROWS_WITH(LoadImageDataset(dir), Contains("holds 4 images but") &&
                                                 Contains("train-labels-idx1-ubyte 5 labels"));
  }
  SECTION("a missing file") {
    WriteSplits(dir, false, 4, 4);
    std::filesystem::remove(dir + "/t10k-labels-idx1-ubyte");
    CHECK_THROWS_WITH(LoadImageDataset(dir), Contains("no t10k-labels-idx1-ubyte"));
  }
}

}  // namespace pmoe
