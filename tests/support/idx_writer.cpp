// The magic number (0, 0, 0x08 = unsigned byte, rank), big-endian 32-bit sizes, the bytes.
#include "support/idx_writer.hpp"

#include <zlib.h>

#include <stdexcept>

namespace pmoe {
namespace {

void Write(const std::string& path, bool gzip, int rank, const std::vector<uint32_t>& dims,
           const uint8_t* data, size_t size) {
  gzFile file = gzopen(path.c_str(), gzip ? "wb" : "wbT");
  if (file == nullptr) throw std::runtime_error(path + ": cannot open for writing");
  const uint8_t magic[4] = {0, 0, 0x08, static_cast<uint8_t>(rank)};
  bool ok = gzwrite(file, magic, 4) == 4;
  for (uint32_t d : dims) {
    const uint8_t b[4] = {uint8_t(d >> 24), uint8_t(d >> 16), uint8_t(d >> 8), uint8_t(d)};
    ok = ok && gzwrite(file, b, 4) == 4;
  }
  ok = ok && (size == 0 || gzwrite(file, data, static_cast<unsigned>(size)) == int(size));
  ok = gzclose(file) == Z_OK && ok;
  if (!ok) throw std::runtime_error(path + ": write failed");
}

}  // namespace

void WriteIdxImages(const std::string& path, const IdxImages& images, bool gzip) {
  Write(path, gzip, 3, {uint32_t(images.count), uint32_t(images.rows), uint32_t(images.cols)},
        images.pixels.data(), images.pixels.size());
}

void WriteIdxLabels(const std::string& path, const std::vector<uint8_t>& labels, bool gzip) {
  Write(path, gzip, 1, {uint32_t(labels.size())}, labels.data(), labels.size());
}

}  // namespace pmoe
