// IDX reading through zlib's gz* functions, which read gzip and plain files alike.
#include "pmoe/io/idx_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/io/file_kind.hpp"

namespace pmoe {
namespace {

constexpr uint8_t kUnsignedByte = 0x08;

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzCloser>;

// Reads exactly `size` bytes or throws naming what was being read.
void ReadExactly(gzFile file, const std::string& path, void* out, size_t size,
                 const std::string& what, size_t before = 0, size_t total = 0) {
  if (total == 0) total = size;
  size_t done = 0;
  while (done < size) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(size - done, 1u << 30));
    const int got = gzread(file, static_cast<char*>(out) + done, chunk);
    if (got < 0) {
      int code = 0;
      throw SchemaError(path + ": cannot read " + what + ": " + gzerror(file, &code));
    }
    if (got == 0)
      throw SchemaError(path + ": truncated: " + what + ": " + std::to_string(before + done) +
                        " of " + std::to_string(total) + " bytes");
    done += static_cast<size_t>(got);
  }
}

GzFile Open(const std::string& path, const char* mode) {
  GzFile file(gzopen(path.c_str(), mode));
  if (!file) throw SchemaError(path + ": cannot open: " + std::strerror(errno));
  return file;
}

// Opening a FIFO for reading blocks until a writer comes, forever if none does.
GzFile OpenInput(const std::string& path) {
  if (const std::string problem = InputFileProblem(path); !problem.empty())
    throw SchemaError(path + ": " + problem + " (expected an IDX file)");
  return Open(path, "rb");
}

// The data size a header claims, checked before anything is allocated: against the machine's
// memory, and for an uncompressed file against its size on disk.
size_t CheckClaimedSize(gzFile file, const std::string& path, size_t header_bytes,
                        const std::vector<uint32_t>& dims) {
  double claimed = 1;
  for (uint32_t d : dims) claimed *= d;
  const double memory = PhysicalMemoryBytes();
  if (memory > 0 && claimed > 0.5 * memory) {
    char text[96];
    std::snprintf(text, sizeof text, "%.4g bytes, more than half of this machine's memory",
                  claimed);
    throw SchemaError(path + ": the header claims " + text);
  }
  const size_t bytes = static_cast<size_t>(claimed);
  if (gzdirect(file)) {
    const int64_t size = FileSize(path);
    const uint64_t expected = header_bytes + bytes;
    if (size >= 0 && static_cast<uint64_t>(size) < expected)
      throw SchemaError(path + ": truncated: its header claims " + std::to_string(bytes) +
                        " bytes of data; the file holds " +
                        std::to_string(std::max<int64_t>(size - header_bytes, 0)) + " of " +
                        std::to_string(bytes) + " bytes");
    if (size >= 0 && static_cast<uint64_t>(size) > expected)
      throw SchemaError(path + ": longer than its header says (" + std::to_string(bytes) +
                        " bytes of data expected, " + std::to_string(size - header_bytes) +
                        " found): not an IDX file, or a damaged one");
  }
  return bytes;
}

// Reads `size` bytes in chunks, growing the buffer only as data arrives: a compressed file
// whose header lies costs what it holds, not what it claims.
std::vector<uint8_t> ReadData(gzFile file, const std::string& path, size_t size,
                              const std::string& what) {
  constexpr size_t kChunk = size_t{16} << 20;
  std::vector<uint8_t> data;
  data.reserve(std::min(size, kChunk));
  while (data.size() < size) {
    const size_t done = data.size(), chunk = std::min(size - done, kChunk);
    data.resize(done + chunk);
    ReadExactly(file, path, data.data() + done, chunk, what, done, size);
  }
  return data;
}

// The header's dimensions after checking the magic number's type and rank.
std::vector<uint32_t> ReadHeader(gzFile file, const std::string& path, int rank, const char* kind) {
  uint8_t magic[4];
  ReadExactly(file, path, magic, 4, "the magic number");
  char expected[16];
  std::snprintf(expected, sizeof expected, "0x0000080%d", rank);
  if (magic[0] != 0 || magic[1] != 0 || magic[2] != kUnsignedByte || magic[3] != rank) {
    char found[16];
    std::snprintf(found, sizeof found, "0x%02x%02x%02x%02x", magic[0], magic[1], magic[2],
                  magic[3]);
    throw SchemaError(path + ": wrong magic number " + found + " (expected " + expected +
                      " for IDX " + kind + ")");
  }
  std::vector<uint32_t> dims(rank);
  for (int i = 0; i < rank; ++i) {
    uint8_t b[4];
    ReadExactly(file, path, b, 4, "the header");
    dims[i] = (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
  }
  return dims;
}

void RequireEnd(gzFile file, const std::string& path, size_t expected_bytes) {
  char extra;
  if (gzread(file, &extra, 1) > 0)
    throw SchemaError(path + ": longer than its header says (" + std::to_string(expected_bytes) +
                      " bytes of data expected): not an IDX file, or a damaged one");
}

}  // namespace

IdxImages ReadIdxImages(const std::string& path) {
  GzFile file = OpenInput(path);
  const std::vector<uint32_t> dims = ReadHeader(file.get(), path, 3, "images");
  IdxImages images;
  if (dims[0] > (1u << 24) || dims[1] == 0 || dims[2] == 0 || dims[1] > 4096 || dims[2] > 4096)
    throw SchemaError(path + ": implausible image dimensions " + std::to_string(dims[0]) + " x " +
                      std::to_string(dims[1]) + " x " + std::to_string(dims[2]));
  images.count = static_cast<int>(dims[0]);
  images.rows = static_cast<int>(dims[1]);
  images.cols = static_cast<int>(dims[2]);
  const size_t bytes = CheckClaimedSize(file.get(), path, 16, dims);
  images.pixels = ReadData(file.get(), path, bytes, "the pixels");
  RequireEnd(file.get(), path, images.pixels.size());
  return images;
}

std::vector<uint8_t> ReadIdxLabels(const std::string& path) {
  GzFile file = OpenInput(path);
  const std::vector<uint32_t> dims = ReadHeader(file.get(), path, 1, "labels");
  if (dims[0] > (1u << 24))
    throw SchemaError(path + ": implausible label count " + std::to_string(dims[0]));
  const std::vector<uint8_t> labels =
      ReadData(file.get(), path, CheckClaimedSize(file.get(), path, 8, dims), "the labels");
  RequireEnd(file.get(), path, labels.size());
  return labels;
}

}  // namespace pmoe
