// Replacing a file so that a crash, a full disk or a read-only directory never leaves it
// half-written: the bytes go to `path.tmp`, are fsynced, then renamed over `path`, and the
// directory is fsynced. Any failure removes the temporary file and throws IoError naming the
// path and the system's reason; `path` itself is then untouched.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

void ReplaceFileDurably(const std::string& path, const std::vector<char>& bytes);

}  // namespace pmoe
