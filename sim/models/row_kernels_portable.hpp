// The portable twins of the AVX-512 kernels (row_kernels.cpp, dot_forward.cpp): plain C++ with
// explicit fused multiply-adds, each output computed by the same chain of FMAs and the same tree
// of sums as there, so the two give the same bits. The compiler may vectorize them across
// outputs, which does not change any output's arithmetic. Signatures as in row_kernels.hpp.
#pragma once

namespace pmoe::portable {

// Broadcast order: z[r][k] = fma(x[r][d-1], wt[d-1][k], ... fma(x[r][0], wt[0][k], 0)), except
// the last q % 16 = 4 neurons where TailChains(q) = 4 (numerics version 8, numerics-8-rows.md):
// there four chains p_s over j = s, s + 4, ... (x and w past d taken as 0 up to the next multiple
// of 4), then (p0 + p1) + (p2 + p3). The AVX-512 kernel holds the 4 neurons' 4 chains in the 16
// lanes of one vector (lane 4 m + s), every FMA full.
void RowsTimesWtBroadcast(const float* const* rows, int R, int d, const float* wt, int q, float* z);

// Dot order (dot_forward.cpp): 8 partial sums per (row, neuron), lane l over j = l, l + 8, ...
// (zero-padded to a multiple of 8), then ((s0+s2)+(s1+s3)) + ((s4+s6)+(s5+s7)). w is (q, d).
void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z);

void ReluOutputs(const float* z, int R, int q, const float* a, float* h);

// The tail's chains in the broadcast order above: 4 for q = 20 (separate pMoE) and 36, whose
// last vector holds 4 neurons; 1 (one chain per output) for every other q. Tails of 8 neurons
// in 2 chains (q = 24, 40) gained 0-5 % on the Intel Xeon: not taken, their bits unchanged.
inline int TailChains(int q) { return q == 20 || q == 36 ? 4 : 1; }

// The tail's weights in the kernels' lane order: packed[(j / G) 16 + m G + s] = wt[j][q - t + m]
// for j = (j / G) G + s < d, 0 past d; (d + G - 1) / G rows of 16 floats.
inline void PackTailWeights(const float* wt, int d, int q, int G, float* packed) {
  const int t = q % 16, k0 = q - t;
  for (int jg = 0; jg < (d + G - 1) / G; ++jg)
    for (int m = 0; m < t; ++m)
      for (int s = 0; s < G; ++s) {
        const int j = jg * G + s;
        packed[jg * 16 + m * G + s] = j < d ? wt[j * q + k0 + m] : 0.0f;
      }
}

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
