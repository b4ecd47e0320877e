// Which implementation of the float kernels (row_kernels, dot_forward, topl_simd) runs: the
// AVX-512 one when the CPU has AVX-512 (F, BW, DQ, VL), else a portable twin that computes the
// same bits: every output is the same chain of fused multiply-adds and the same tree of sums in
// both (row_kernels_portable.cpp). Chosen at run time, so one binary runs on every x86-64 node
// and gives the same numbers on all of them.
#pragma once

namespace pmoe {

enum class KernelPath { kAvx512, kPortable };

// Chosen once, at first use: AVX-512 when the CPU has it, unless the environment variable
// PMOE_KERNELS=portable asks for the twin (to compare the two, or to time the portable one).
KernelPath ActiveKernelPath();

const char* KernelPathName(KernelPath path);  // "avx512", "portable"

// For tests: run the given path from now on (kAvx512 only on a CPU that has it).
void ForceKernelPath(KernelPath path);

// Whether this CPU can run the AVX-512 path.
bool CpuHasAvx512Kernels();

}  // namespace pmoe
