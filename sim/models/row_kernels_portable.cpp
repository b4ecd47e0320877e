// The portable twins of the AVX-512 kernels: the same arithmetic per output, written so that
// the compiler can vectorize across outputs (the inner loops run over contiguous outputs).
// Lanes the AVX-512 kernels fill with zeros (masked loads past a row's end) are fed zeros here
// too: an FMA of zeros turns an accumulated -0 into +0, and the bits must follow.
#include "row_kernels_portable.hpp"

#include <cmath>
#include <vector>

namespace pmoe::portable {

void RowsTimesWtBroadcast(const float* const* rows, int R, int d, const float* wt, int q,
                          float* z) {
  const int G = TailChains(q), chained = G > 1 ? q - q % 16 : q;
  for (int r = 0; r < R; ++r) {
    float* out = z + static_cast<size_t>(r) * q;
    for (int k = 0; k < chained; ++k) out[k] = 0.0f;
    for (int j = 0; j < d; ++j) {
      const float x = rows[r][j];
      const float* w = wt + static_cast<size_t>(j) * q;
      for (int k = 0; k < chained; ++k) out[k] = std::fma(x, w[k], out[k]);
    }
    for (int k = chained; k < q; ++k) {  // the tail's G = 4 chains (G > 1 only)
      float p[4] = {};
      for (int j0 = 0; j0 < d; j0 += G)
        for (int s = 0; s < G; ++s) {
          const bool in = j0 + s < d;
          p[s] = std::fma(in ? rows[r][j0 + s] : 0.0f,
                          in ? wt[static_cast<size_t>(j0 + s) * q + k] : 0.0f, p[s]);
        }
      out[k] = (p[0] + p[1]) + (p[2] + p[3]);
    }
  }
}

void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z) {
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < q; ++k) {
      const float* x = rows[r];
      const float* wk = w + static_cast<size_t>(k) * d;
      float s[16] = {};
      for (int j0 = 0; j0 < d; j0 += 16)
        for (int l = 0; l < 16; ++l) {
          const bool in = j0 + l < d;
          s[l] = std::fma(in ? x[j0 + l] : 0.0f, in ? wk[j0 + l] : 0.0f, s[l]);
        }
      // dot_forward.cpp's SumLanes16x16: lanes l and l + 8, then SumLanes8's tree: pairs
      // (0,2) (1,3) per half, then the halves.
      float t[8];
      for (int l = 0; l < 8; ++l) t[l] = s[l] + s[l + 8];
      z[static_cast<size_t>(r) * q + k] =
          ((t[0] + t[2]) + (t[1] + t[3])) + ((t[4] + t[6]) + (t[5] + t[7]));
    }
}

void ReluOutputs(const float* z, int R, int q, const float* a, float* h) {
  for (int r = 0; r < R; ++r) {
    float acc[16] = {};
    for (int k0 = 0; k0 < q; k0 += 16)
      for (int l = 0; l < 16; ++l) {
        const int k = k0 + l;
        // max(z, +0) as the AVX-512 max returns it: +0 for -0 and for NaN.
        const float v = k < q ? z[static_cast<size_t>(r) * q + k] : 0.0f;
        acc[l] = std::fma(v > 0.0f ? v : 0.0f, k < q ? a[k] : 0.0f, acc[l]);
      }
    // row_kernels.cpp's SumLanes16: halves, quarters, then lanes (0+2, 1+3), then the two.
    float t8[8], t4[4];
    for (int i = 0; i < 8; ++i) t8[i] = acc[i + 8] + acc[i];
    for (int i = 0; i < 4; ++i) t4[i] = t8[i + 4] + t8[i];
    h[r] = (t4[0] + t4[2]) + (t4[1] + t4[3]);
  }
}

void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g) {
  const int cols = q + (extra ? 1 : 0);
  for (int r = 0; r < R; ++r) {
    const float c = coef[r];
    float* out = g + static_cast<size_t>(r) * cols;
    const float* zr = z + static_cast<size_t>(r) * q;
    for (int k = 0; k < q; ++k) out[k] = zr[k] > 0.0f ? c * a[k] : 0.0f;
    if (extra) out[q] = extra[r];
  }
}

void ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                       const float* const* coef, const float* extra, float* g) {
  // The AVX-512 kernel's chain: coef[0] * a[0], then one fused multiply-add per other output.
  const int cols = q + (extra ? 1 : 0);
  for (int r = 0; r < R; ++r) {
    float* out = g + static_cast<size_t>(r) * cols;
    const float* zr = z + static_cast<size_t>(r) * q;
    for (int k = 0; k < q; ++k) {
      float sum = coef[0][r] * a[0][k];
      for (int o = 1; o < outputs; ++o) sum = std::fma(coef[o][r], a[o][k], sum);
      out[k] = zr[k] > 0.0f ? sum : 0.0f;
    }
    if (extra) out[q] = extra[r];
  }
}

void WeightGradient(const float* const* rows, int R, int d, const float* g, int q, float* dw,
                    int k_stride, int j_stride) {
  // Accumulated (q, d) with j contiguous, then written out in the layout asked for.
  thread_local std::vector<float> acc;
  acc.assign(static_cast<size_t>(q) * d, 0.0f);
  for (int k = 0; k < q; ++k) {
    float* out = acc.data() + static_cast<size_t>(k) * d;
    for (int r = 0; r < R; ++r) {
      const float gk = g[static_cast<size_t>(r) * q + k];
      const float* x = rows[r];
      for (int j = 0; j < d; ++j) out[j] = std::fma(gk, x[j], out[j]);
    }
  }
  for (int k = 0; k < q; ++k)
    for (int j = 0; j < d; ++j)
      dw[static_cast<size_t>(k) * k_stride + static_cast<size_t>(j) * j_stride] =
          acc[static_cast<size_t>(k) * d + j];
}

}  // namespace pmoe::portable
