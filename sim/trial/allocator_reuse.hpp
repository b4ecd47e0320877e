// The allocator's policy for trials (allocator_reuse.cpp).
#pragma once

namespace pmoe {

// Keeps memory freed by one trial for the next instead of returning it to the system (glibc;
// nothing elsewhere). Idempotent and thread-safe; RunTrial calls it.
void KeepFreedMemoryForReuse();

}  // namespace pmoe
