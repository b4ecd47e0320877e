// The physical limit of one core for float32 arithmetic: independent chains of fused
// multiply-adds on the widest vectors the CPU has (../shared/notes/fma-peak.md). pmoe-bench
// states each cell's speed as a fraction of it, which holds across CPUs better than a fraction
// of a library's GEMM.
#pragma once

#include <string>

namespace pmoe {

struct FmaPeak {
  double gflops = 0;  // the best of a few timed runs, 2 FLOP per lane per FMA
  std::string how;    // "AVX-512: 16 chains of 512-bit FMA"
};

// allow_avx512 false: the 256-bit peak even on an AVX-512 CPU, for a run whose kernels were told
// to stay narrower (PMOE_KERNELS=avx2 with a PMOE_MARCH=haswell build stands in for a CPU
// without AVX-512).
FmaPeak MeasureFmaPeak(bool allow_avx512);

}  // namespace pmoe
