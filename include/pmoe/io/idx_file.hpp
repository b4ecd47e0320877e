// The IDX format of MNIST, Fashion-MNIST and their kin (yann.lecun.com/exdb/mnist): a magic
// number (0, 0, type 0x08 = unsigned byte, number of dimensions), big-endian 32-bit sizes, then
// the bytes. Files may be gzip-compressed or not. Everything read is validated: a bad file is a
// SchemaError naming the file and what is wrong, never a crash or silently short data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pmoe {

struct IdxImages {
  int count = 0, rows = 0, cols = 0;
  std::vector<uint8_t> pixels;  // (count, rows, cols), row-major
};

IdxImages ReadIdxImages(const std::string& path);
std::vector<uint8_t> ReadIdxLabels(const std::string& path);

}  // namespace pmoe
