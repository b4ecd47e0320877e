// The portable twins of the AVX-512 kernels (row_kernels.cpp, dot_forward.cpp): plain C++ with
// explicit fused multiply-adds, each output computed by the same chain of FMAs and the same tree
// of sums as there, so the two give the same bits. The compiler may vectorize them across
// outputs, which does not change any output's arithmetic. Signatures as in row_kernels.hpp.
#pragma once

namespace pmoe::portable {

// Broadcast order: z[r][k] = fma(x[r][d-1], wt[d-1][k], ... fma(x[r][0], wt[0][k], 0)).
void RowsTimesWtBroadcast(const float* const* rows, int R, int d, const float* wt, int q, float* z);

// Dot order (dot_forward.cpp): 8 partial sums per (row, neuron), lane l over j = l, l + 8, ...
// (zero-padded to a multiple of 8), then ((s0+s2)+(s1+s3)) + ((s4+s6)+(s5+s7)). w is (q, d).
void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z);

void ReluOutputs(const float* z, int R, int q, const float* a, float* h);

void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g);
void ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                       const float* const* coef, const float* extra, float* g);

// dw[k * k_stride + j * j_stride] = fma(g[R-1][k], x[R-1][j], ... fma(g[0][k], x[0][j], 0)).
void ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                       const float* const* coef, const float* extra, float* g);
void WeightGradient(const float* const* rows, int R, int d, const float* g, int q, float* dw,
                    int k_stride, int j_stride);

}  // namespace pmoe::portable
