// Trials allocate and free the same large buffers over and over (a data set, routes and scores
// of a test set, a batch's activations). glibc serves a block over its mmap threshold (128 KiB
// at first) with fresh pages and returns them on free, so every trial paid the page faults of
// zeroing them again: 6-9 % of a small separate-pMoE trial's time in the kernel (Zen 5, perf).
// Raising the threshold and the trim threshold keeps freed memory in the process for the next
// trial. Nothing computed changes, only where the bytes live.
#include "allocator_reuse.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace pmoe {

void KeepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  static const bool done = [] {
    // 32 MiB is the largest mmap threshold glibc accepts on 64-bit machines; larger blocks
    // (a big data set) keep their own mappings. Up to 64 MiB of free memory at the top of a
    // heap stays with the process.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    return true;
  }();
  (void)done;
#endif
}

}  // namespace pmoe
