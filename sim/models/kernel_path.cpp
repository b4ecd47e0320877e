// The run-time choice between the AVX-512 kernels and their portable twin.
#include "pmoe/models/kernel_path.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

KernelPath Choose() {
  const char* forced = std::getenv("PMOE_KERNELS");
  if (forced != nullptr && std::strcmp(forced, "portable") == 0) return KernelPath::kPortable;
  return CpuHasAvx512Kernels() ? KernelPath::kAvx512 : KernelPath::kPortable;
}

std::atomic<int>& Chosen() {
  static std::atomic<int> path{static_cast<int>(Choose())};
  return path;
}

}  // namespace

bool CpuHasAvx512Kernels() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

KernelPath ActiveKernelPath() { return static_cast<KernelPath>(Chosen().load()); }

const char* KernelPathName(KernelPath path) {
  return path == KernelPath::kAvx512 ? "avx512" : "portable";
}

void ForceKernelPath(KernelPath path) {
  PMOE_CHECK(path == KernelPath::kPortable || CpuHasAvx512Kernels())
      << "the AVX-512 kernels on a CPU without AVX-512";
  Chosen().store(static_cast<int>(path));
}

}  // namespace pmoe
