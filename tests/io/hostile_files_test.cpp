// Input files of the wrong kind or with lying headers: every one refused by name before it is
// opened for reading (a FIFO would block forever) or before its claimed size is allocated.
#include <sys/stat.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/io/idx_file.hpp"
#include "pmoe/io/ini_file.hpp"
#include "support/idx_writer.hpp"
#include "support/run_command.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Gzip(const std::string& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
  return path;
}

// An IDX image header: magic 0x00000803 and three big-endian sizes.
std::string ImageHeader(uint32_t count, uint32_t rows, uint32_t cols) {
  std::string h = {0, 0, 8, 3};
  for (uint32_t v : {count, rows, cols})
    for (int shift : {24, 16, 8, 0}) h.push_back(static_cast<char>((v >> shift) & 0xff));
  return h;
}

double Seconds(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("Paths of the wrong kind are named with what they are", "[io][hostile]") {
  const std::string dir = test::FreshDirectory("file_kind");
  const std::string fifo = dir + "/fifo", file = dir + "/file";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  WriteBytes(file, "x");
  CHECK(InputFileProblem(file).empty());
  CHECK_THAT(InputFileProblem(dir), Contains("a directory"));
  CHECK_THAT(InputFileProblem(fifo), Contains("FIFO"));
  CHECK_THAT(InputFileProblem(dir + "/none"), Contains("no such file"));
  CHECK_THAT(InputFileProblem(""), Contains("empty"));
  CHECK_THAT(InputFileProblem("/dev/null"), Contains("device"));

  CHECK(OutputFileProblem(file).empty());
  CHECK(OutputFileProblem(dir + "/new/deeper/r.h5").empty());  // created when written
  CHECK_THAT(OutputFileProblem(""), Contains("empty"));
  CHECK_THAT(OutputFileProblem(dir), Contains("a directory"));
  CHECK_THAT(OutputFileProblem(dir + "/"), Contains("directory"));
  CHECK_THAT(OutputFileProblem(fifo), Contains("FIFO"));
  CHECK_THAT(OutputFileProblem(file + "/r.h5"),
             Contains(file + " is a regular file, not a directory"));
  CHECK_THAT(OutputFileProblem(file + "/a/b/r.h5"), Contains(file + " is a regular file"));
}

TEST_CASE("Config files: kind, control characters and a byte-order mark", "[io][ini][hostile]") {
  const std::string dir = test::FreshDirectory("ini_hostile");
  const std::string fifo = dir + "/c.ini";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(ReadIniFile(fifo), Contains(fifo) && Contains("FIFO"));
  CHECK(Seconds(start) < 5);  // refused, not blocked on
  CHECK_THROWS_WITH(ReadIniFile(dir), Contains(dir + ": a directory"));
  CHECK_THROWS_WITH(ReadIniFile(dir + "/none.ini"), Contains("no such file"));

  // Every control character but tab and line ends is refused, naming its line.
  for (int c = 0; c < 32; ++c) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    INFO(c);
    const std::string text = std::string("trials = 2\nN = 100") + static_cast<char>(c) + "0\n";
    CHECK_THROWS_WITH(ParseIniText("c.ini", text), Contains("c.ini: line 2: control character"));
  }
  CHECK_THROWS_WITH(ParseIniText("c.ini", "N = 1\x7f"), Contains("control character 0x7f"));
  // A UTF-8 byte-order mark is skipped; the text kept is without it.
  const IniFile bom = ParseIniText("c.ini", "\xef\xbb\xbftrials = 2\r\nN = 40\r\n");
  REQUIRE(bom.entries.size() == 2);
  CHECK(bom.entries[0].key == "trials");
  CHECK(bom.text.rfind("trials", 0) == 0);
  // A file far larger than a config is refused before it is read.
  const std::string big = dir + "/big.ini";
  std::filesystem::resize_file((WriteBytes(big, ""), big), 64 << 20);
  CHECK_THROWS_WITH(ReadIniFile(big), Contains("expected a config of at most"));
}

TEST_CASE("Text quoting Boost's own placeholders is reported, not looped on forever",
          "[io][ini][hostile]") {
  // Found by the INI fuzzer: Boost.Program_options replaced "%invalid_line%" in its message by
  // a line holding "%invalid_line%", forever. pmoe-sim's command line went the same way.
  const std::vector<std::string> placeholders = {
      "invalid_line", "canonical_option", "option", "original_token", "value", "prefix"};
  const std::string dir = test::FreshDirectory("ini_placeholders");
  for (const std::string& name : placeholders) {
    INFO(name);
    const std::string token = "%" + name + "%";
    CHECK_THROWS_WITH(ParseIniText("c.ini", "trials = 2\nx " + token + " y\n"),
                      Contains("c.ini") && Contains("invalid line"));
    std::ofstream(dir + "/c.ini") << "trials = 2\nx " << token << "\n";
    const auto sweep =
        test::RunCommand("timeout 20 " + std::string(PMOE_SWEEP_PATH) + " plan " + dir + "/c.ini");
    CHECK(sweep.status == 2);
    for (const std::string& arg : {"--" + token, "--x" + token, "--N=" + token + "=1"}) {
      const auto sim =
          test::RunCommand("timeout 20 " + std::string(PMOE_SIM_PATH) + " '" + arg + "'");
      CHECK(sim.status == 2);
    }
  }
}

TEST_CASE("IDX headers are checked against the file and memory before allocating",
          "[idx][hostile]") {
  const std::string dir = test::FreshDirectory("idx_hostile");
  using Clock = std::chrono::steady_clock;
  // 16 M images of 28x28 claimed by a 16-byte file: 13 GB were allocated and zeroed before.
  const std::string plain = dir + "/plain";
  WriteBytes(plain, ImageHeader(0xffffff, 28, 28));
  auto start = Clock::now();
  CHECK_THROWS_WITH(ReadIdxImages(plain), Contains(plain));
  CHECK(Seconds(start) < 1);
  // The same header with a little data: a short plain file is refused by its size.
  WriteBytes(plain, ImageHeader(1000, 28, 28) + std::string(100, 'x'));
  CHECK_THROWS_WITH(ReadIdxImages(plain), Contains("truncated") && Contains("100 of 784000"));
  // Compressed, the size on disk says nothing: reading stops at the real end, having held no
  // more than what the file had.
  const std::string gz =
      Gzip(dir + "/img.gz", ImageHeader(100000, 28, 28) + std::string(5000, 'x'));
  start = Clock::now();
  CHECK_THROWS_WITH(ReadIdxImages(gz), Contains("truncated") && Contains("5000 of 78400000"));
  CHECK(Seconds(start) < 1);
  // Dimensions beyond any image set, and a FIFO.
  WriteBytes(plain, ImageHeader(10, 0, 28));
  CHECK_THROWS_WITH(ReadIdxImages(plain), Contains("implausible image dimensions"));
  const std::string fifo = dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  start = Clock::now();
  CHECK_THROWS_WITH(ReadIdxImages(fifo), Contains("FIFO"));
  CHECK_THROWS_WITH(ReadIdxLabels(fifo), Contains("FIFO"));
  CHECK(Seconds(start) < 5);
  CHECK_THROWS_WITH(ReadIdxLabels(dir), Contains("a directory"));
}

TEST_CASE("pmoe-sim refuses a FIFO or a lying IDX file in its image directory at once",
          "[idx][hostile][cli]") {
  const std::string dir = test::FreshDirectory("idx_dir_hostile");
  const std::string source = "/usr/share/datasets/fashion-mnist";
  for (const char* name :
       {"train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"})
    std::filesystem::copy_file(source + "/" + name, dir + "/" + name);
  const std::string images = dir + "/train-images-idx3-ubyte";
  REQUIRE(::mkfifo(images.c_str(), 0644) == 0);
  const std::string sim = PMOE_SIM_PATH;
  const auto fifo =
      test::RunCommand("timeout 20 " + sim + " --data image --idx-dir " + dir + " --trials 1");
  CHECK(fifo.status == 2);
  CHECK_THAT(fifo.err, Contains(images) && Contains("FIFO"));
  std::filesystem::remove(images);
  WriteBytes(images, ImageHeader(0xffffff, 28, 28));
  const auto lying =
      test::RunCommand("timeout 20 " + sim + " --data image --idx-dir " + dir + " --trials 1");
  CHECK(lying.status == 2);
  CHECK_THAT(lying.err, Contains(images));
}

TEST_CASE("Image classes without statistics are refused before any trial", "[idx][hostile]") {
  // Blank images (a class mean of no direction), then two classes with the same images
  // (delta_d = 1): "delta inf" was printed before.
  for (const bool blank : {true, false}) {
    INFO((blank ? "blank" : "identical classes"));
    const std::string dir = test::FreshDirectory(blank ? "idx_blank" : "idx_same");
    IdxImages images;
    images.count = 40;
    images.rows = images.cols = 4;
    images.pixels.assign(40 * 16, 0);
    if (!blank)
      for (size_t i = 0; i < images.pixels.size(); ++i) images.pixels[i] = (i % 16) * 9 + 1;
    std::vector<uint8_t> labels;
    for (int i = 0; i < 40; ++i) labels.push_back(static_cast<uint8_t>(i % 4));
    for (const char* split : {"train", "t10k"}) {
      WriteIdxImages(dir + "/" + split + "-images-idx3-ubyte", images, false);
      WriteIdxLabels(dir + "/" + split + "-labels-idx1-ubyte", labels, false);
    }
    const auto r = test::RunCommand(std::string(PMOE_SIM_PATH) + " --data image --idx-dir " + dir +
                                    " --n 4 --trials 1 --N 20 --N_test 20");
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("infeasible data model") &&
                          Contains(blank ? "all blank" : "same mean image direction"));
  }
}

}  // namespace pmoe
