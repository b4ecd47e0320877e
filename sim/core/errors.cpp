// Where a failed PMOE_CHECK ends: the broken invariant, its place and message, then abort.
#include "pmoe/core/errors.hpp"

#include <cstdio>
#include <cstdlib>

namespace pmoe::detail {

void CheckFailed(const char* file, int line, const char* condition, const std::string& message) {
  std::fprintf(stderr, "%s:%d: internal check failed: %s %s\n", file, line, condition,
               message.c_str());
  std::abort();
}

}  // namespace pmoe::detail
