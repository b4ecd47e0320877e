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
  for (KernelPath path : {KernelPath::kPortable, KernelPath::kAvx2})
    if (forced != nullptr && std::strcmp(forced, KernelPathName(path)) == 0 && CpuRuns(path))
      return path;
  for (KernelPath path : {KernelPath::kAvx512, KernelPath::kAvx2})
    if (CpuRuns(path)) return path;
  return KernelPath::kPortable;
}

std::atomic<int>& Chosen() {
  static std::atomic<int> path{static_cast<int>(Choose())};
  return path;
}

}  // namespace

bool CpuRuns(KernelPath path) {
  __builtin_cpu_init();
  switch (path) {
    case KernelPath::kAvx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    case KernelPath::kAvx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case KernelPath::kPortable:
      return true;
  }
  return false;
}

KernelPath ActiveKernelPath() { return static_cast<KernelPath>(Chosen().load()); }

const char* KernelPathName(KernelPath path) {
  switch (path) {
    case KernelPath::kAvx512:
      return "avx512";
    case KernelPath::kAvx2:
      return "avx2";
    case KernelPath::kPortable:
      return "portable";
  }
  return "?";
}

void ForceKernelPath(KernelPath path) {
  PMOE_CHECK(CpuRuns(path)) << "kernel path " << KernelPathName(path) << " on a CPU without it";
  Chosen().store(static_cast<int>(path));
}

}  // namespace pmoe
