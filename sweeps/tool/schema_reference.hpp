// The HDF5 result file's schema as Markdown (`pmoe-sweep --reference schema`), read back from a
// file this build writes, so the reference lists exactly what the store writes.
#pragma once

#include <string>

namespace pmoe {

std::string ResultSchemaMarkdown();

}  // namespace pmoe
