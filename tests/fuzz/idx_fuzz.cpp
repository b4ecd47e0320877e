// Fuzz target: the IDX reader on file bytes, plain or (first byte odd) gzip-compressed, read as
// images and as labels. Allowed outcomes: the data, or SchemaError. The header's claims are
// checked before allocation, so no input may allocate more than its own size allows.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/idx_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pmoe;
  if (size == 0) return 0;
  const std::string& path = fuzz::ScratchPath("idx");
  if (data[0] & 1) {
    gzFile f = gzopen(path.c_str(), "wb1");
    if (size > 1) gzwrite(f, data + 1, static_cast<unsigned>(size - 1));
    gzclose(f);
  } else {
    fuzz::WriteFile(path, data + 1, size - 1);
  }
  try {
    const IdxImages images = ReadIdxImages(path);
    PMOE_FUZZ_REQUIRE(images.pixels.size() ==
                      size_t(images.count) * size_t(images.rows) * size_t(images.cols));
    PMOE_FUZZ_REQUIRE(images.rows > 0 && images.cols > 0);
  } catch (const SchemaError&) {
  }
  try {
    const std::vector<uint8_t> labels = ReadIdxLabels(path);
    PMOE_FUZZ_REQUIRE(labels.size() <= (size_t{1} << 24));
  } catch (const SchemaError&) {
  }
  return 0;
}
