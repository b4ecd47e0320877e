// Which implementation of the float kernels (row_kernels, dot_forward, topl_simd) runs: the
// AVX-512 one when the CPU has AVX-512 (F, BW, DQ, VL), else AVX2 twins when it has AVX2 and FMA
// (row_kernels_avx2.cpp), else portable C++ twins (row_kernels_portable.cpp). All compute the
// same bits: every output is the same chain of fused multiply-adds and the same tree of sums.
// Chosen at run time, so one binary runs on every x86-64 node with the same numbers.
#pragma once

namespace pmoe {

enum class KernelPath { kAvx512, kAvx2, kPortable };

// Chosen once, at first use: the widest the CPU has, unless the environment variable
// PMOE_KERNELS=avx2 or =portable asks for a narrower one (to compare them, or to time them).
KernelPath ActiveKernelPath();

const char* KernelPathName(KernelPath path);  // "avx512", "avx2", "portable"

// For tests: run the given path from now on (only one the CPU can run).
void ForceKernelPath(KernelPath path);

// Whether this CPU can run the path.
bool CpuRuns(KernelPath path);

}  // namespace pmoe
