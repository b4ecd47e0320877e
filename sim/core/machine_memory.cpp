// The machine's memory, which the checks of trials and of files (HDF5 columns, IDX images)
// weigh their sizes against.
#include <unistd.h>

#include "pmoe/core/validate.hpp"

namespace pmoe {

double PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * page : 0.0;
}

}  // namespace pmoe
