// Writing IDX files (the format pmoe/io/idx_file.hpp reads) for the tests' image data: plain when
// `gzip` is false. Test-only, so it lives here rather than in the I/O library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmoe/io/idx_file.hpp"

namespace pmoe {

void WriteIdxImages(const std::string& path, const IdxImages& images, bool gzip);
void WriteIdxLabels(const std::string& path, const std::vector<uint8_t>& labels, bool gzip);

}  // namespace pmoe
