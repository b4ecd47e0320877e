// AVX2 twins of the products of row_kernels.cpp and dot_forward.cpp. Every loop over an
// accumulator array is unrolled, or GCC keeps the arrays in memory. Register blocking fits the
// 16 ymm registers: the forward holds 4 rows x 24 neurons (8 x 8), the gradient 2 neurons x 32
// columns, the dot products at most 15 accumulators. Blocking never changes an output's arithmetic,
// which is the AVX-512 kernels' chain for it; masked loads give zeros past a row's end as theirs
// do.
#include "row_kernels_avx2.hpp"

#include <immintrin.h>

#include <algorithm>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "row_kernels_portable.hpp"

namespace pmoe::avx2 {
namespace {

#pragma GCC push_options
#pragma GCC target("avx2,fma")

// Lanes [0, count) of an 8-lane vector, for maskload and maskstore (count may be <= 0 or > 8).
__m256i Mask(int count) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), lane);
}

// RB rows against NV 8-lane vectors of neurons (the last masked to `width` lanes in all).
template <int NV, int RB>
void ForwardBlock(const float* const* rows, int d, const float* wt, int ld, int width, float* z) {
  __m256 acc[RB][NV];
#pragma GCC unroll 16
  for (int i = 0; i < RB; ++i)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[i][v] = _mm256_setzero_ps();
  const __m256i last = Mask(width - 8 * (NV - 1));
  for (int j = 0; j < d; ++j) {
    const float* wrow = wt + j * ld;
    __m256 w[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV - 1; ++v) w[v] = _mm256_loadu_ps(wrow + 8 * v);
    w[NV - 1] = _mm256_maskload_ps(wrow + 8 * (NV - 1), last);
#pragma GCC unroll 16
    for (int i = 0; i < RB; ++i) {
      const __m256 x = _mm256_set1_ps(rows[i][j]);
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) acc[i][v] = _mm256_fmadd_ps(x, w[v], acc[i][v]);
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < RB; ++i) {
#pragma GCC unroll 16
    for (int v = 0; v < NV - 1; ++v) _mm256_storeu_ps(z + i * ld + 8 * v, acc[i][v]);
    _mm256_maskstore_ps(z + i * ld + 8 * (NV - 1), last, acc[i][NV - 1]);
  }
}

// Blocks of RB rows: RB NV accumulators, at least eight (two FMA pipes of four cycles' latency
// need eight independent chains), at most 12 beside the NV weight vectors and a broadcast.
template <int NV>
void ForwardChunk(const float* const* rows, int R, int d, const float* wt, int ld, int width,
                  float* z) {
  constexpr int RB = NV == 1 ? 8 : NV == 2 ? 6 : 4;
  int r = 0;
  for (; r + RB <= R; r += RB) ForwardBlock<NV, RB>(rows + r, d, wt, ld, width, z + r * ld);
  for (; r < R; ++r) ForwardBlock<NV, 1>(rows + r, d, wt, ld, width, z + r * ld);
}

// QB neurons x NV 8-lane vectors of columns from j0, `columns` of them valid.
template <int QB, int NV>
void GradientBlock(const float* const* rows, int R, int j0, int columns, const float* g, int q,
                   int k0, float* dw, int k_stride, int j_stride) {
  __m256 acc[QB][NV];
  __m256i masks[NV];
#pragma GCC unroll 16
  for (int v = 0; v < NV; ++v) masks[v] = Mask(columns - 8 * v);
#pragma GCC unroll 16
  for (int k = 0; k < QB; ++k)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[k][v] = _mm256_setzero_ps();
  for (int r = 0; r < R; ++r) {
    __m256 x[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) x[v] = _mm256_maskload_ps(rows[r] + j0 + 8 * v, masks[v]);
#pragma GCC unroll 16
    for (int k = 0; k < QB; ++k) {
      const __m256 gk = _mm256_set1_ps(g[r * q + k0 + k]);
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) acc[k][v] = _mm256_fmadd_ps(gk, x[v], acc[k][v]);
    }
  }
#pragma GCC unroll 16
  for (int k = 0; k < QB; ++k) {
    float* dst = dw + (k0 + k) * k_stride + j0 * j_stride;
    if (j_stride == 1) {
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) _mm256_maskstore_ps(dst + 8 * v, masks[v], acc[k][v]);
    } else {
      alignas(32) float column[8 * NV];
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) _mm256_store_ps(column + 8 * v, acc[k][v]);
      for (int t = 0; t < columns; ++t) dst[t * j_stride] = column[t];
    }
  }
}

#include "sum_lanes8.inc"  // SumLanes8, compiled here for AVX2

// RB rows against Q neurons as dot products (dot_forward.cpp's DotBlock with AVX2's masked
// loads and stores): each 16-lane accumulator is two 8-lane halves (lanes 0-7 and 8-15 of every
// 16 columns), each half the same chain of FMAs as its AVX-512 lanes, added together before
// SumLanes8 as dot_forward.cpp's SumLanes16x16 does. The halves take a pass over the rows each,
// so that RB Q accumulators fit the 16 registers.
template <int Q, int RB>
void DotBlock(const float* const* rows, int d, const float* w, float* z, int room) {
  constexpr int kAcc = RB * Q, kGroups = (kAcc + 7) / 8;
  __m256 low[kGroups * 8], acc[kGroups * 8];
  const int full = d & ~15;
  auto step = [&](int j, __m256i m) {
    __m256 x[RB];
#pragma GCC unroll 16
    for (int r = 0; r < RB; ++r) x[r] = _mm256_maskload_ps(rows[r] + j, m);
#pragma GCC unroll 16
    for (int c = 0; c < Q; ++c) {
      const __m256 wv = _mm256_maskload_ps(w + c * d + j, m);
#pragma GCC unroll 16
      for (int r = 0; r < RB; ++r) acc[r * Q + c] = _mm256_fmadd_ps(x[r], wv, acc[r * Q + c]);
    }
  };
  for (int half = 0; half < 2; ++half) {
#pragma GCC unroll 16
    for (int i = 0; i < kGroups * 8; ++i) acc[i] = _mm256_setzero_ps();
    for (int j = 0; j < full; j += 16) step(j + 8 * half, Mask(8));
    if (full < d) step(full + 8 * half, Mask(d - full - 8 * half));
    if (half == 0)
#pragma GCC unroll 16
      for (int i = 0; i < kGroups * 8; ++i) low[i] = acc[i];
  }
#pragma GCC unroll 16
  for (int g = 0; g < kGroups; ++g) {
    __m256 halves[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) halves[i] = _mm256_add_ps(low[8 * g + i], acc[8 * g + i]);
    _mm256_maskstore_ps(z + 8 * g, Mask(room - 8 * g), SumLanes8(halves));
  }
}

template <int Q, int RB>
void DotForward(const float* const* rows, int R, int d, const float* w, float* z) {
  int r = 0;
  for (; r + RB <= R; r += RB) DotBlock<Q, RB>(rows + r, d, w, z + r * Q, (R - r) * Q);
  for (; r < R; ++r) DotBlock<Q, 1>(rows + r, d, w, z + r * Q, (R - r) * Q);
}

// row_kernels.cpp's SumLanes16 on a 16-lane vector held as two halves.
inline float SumLanes16(__m256 low, __m256 high) {
  const __m256 halves = _mm256_add_ps(high, low);
  const __m128 quarters =
      _mm_add_ps(_mm256_extractf128_ps(halves, 1), _mm256_extractf128_ps(halves, 0));
  const __m128 pairs = _mm_add_ps(quarters, _mm_shuffle_ps(quarters, quarters, 0x4e));
  return _mm_cvtss_f32(pairs) + _mm_cvtss_f32(_mm_shuffle_ps(pairs, pairs, 0x55));
}

void ReluOutputsImpl(const float* z, int R, int q, const float* a, float* h) {
  const __m256 zero = _mm256_setzero_ps();
  for (int r = 0; r < R; ++r) {
    __m256 low = zero, high = zero;  // lanes 0-7 and 8-15 of the AVX-512 accumulator
    for (int k = 0; k < q; k += 16) {
      const __m256i m0 = Mask(q - k), m1 = Mask(q - k - 8);
      // max(z, +0) returns its second operand for NaN and for zeros, as the AVX-512 max does.
      const __m256 z0 = _mm256_max_ps(_mm256_maskload_ps(z + r * q + k, m0), zero);
      const __m256 z1 = _mm256_max_ps(_mm256_maskload_ps(z + r * q + k + 8, m1), zero);
      low = _mm256_fmadd_ps(z0, _mm256_maskload_ps(a + k, m0), low);
      high = _mm256_fmadd_ps(z1, _mm256_maskload_ps(a + k + 8, m1), high);
    }
    h[r] = SumLanes16(low, high);
  }
}

void ReluGradientImpl(const float* z, int R, int q, const float* a, const float* coef,
                      const float* extra, float* g) {
  const int cols = q + (extra ? 1 : 0);
  for (int r = 0; r < R; ++r) {
    const __m256 c = _mm256_set1_ps(coef[r]);
    for (int k = 0; k < q; k += 8) {
      const __m256i m = Mask(q - k);
      const __m256 active =
          _mm256_cmp_ps(_mm256_maskload_ps(z + r * q + k, m), _mm256_setzero_ps(), _CMP_GT_OQ);
      // Inactive neurons get +0, as from the AVX-512 kernel's zeroing multiply.
      const __m256 value = _mm256_and_ps(active, _mm256_mul_ps(c, _mm256_maskload_ps(a + k, m)));
      _mm256_maskstore_ps(g + r * cols + k, m, value);
    }
    if (extra) g[r * cols + q] = extra[r];
  }
}

// The tail's G = 4 chains (row_kernels_portable.hpp), RB rows at a time: lanes m G + s of the
// AVX-512 kernel's vector as two 8-lane halves, x[j .. j + G) broadcast as a group, the last
// partial group zero-padded; then each neuron's chains summed in the same tree.
template <int G, int RB>
void TailBlock(const float* const* rows, int d, const float* packed, int ld, float* z) {
  __m256 lo[RB], hi[RB];
#pragma GCC unroll 16
  for (int i = 0; i < RB; ++i) lo[i] = hi[i] = _mm256_setzero_ps();
  for (int j = 0, jg = 0; j < d; j += G, ++jg) {
    const __m256 wlo = _mm256_loadu_ps(packed + 16 * jg),
                 whi = _mm256_loadu_ps(packed + 16 * jg + 8);
#pragma GCC unroll 16
    for (int i = 0; i < RB; ++i) {
      const float* src = rows[i] + j;
      float group[4] = {};
      if (j + G > d) {  // the last, partial group: zeros past the row's end
        for (int s2 = 0; s2 < d - j; ++s2) group[s2] = src[s2];
        src = group;
      }
      const __m256 x = _mm256_broadcast_ps(reinterpret_cast<const __m128*>(src));
      lo[i] = _mm256_fmadd_ps(x, wlo, lo[i]);
      hi[i] = _mm256_fmadd_ps(x, whi, hi[i]);
    }
  }
  // Two horizontal additions give lanes 0, 4, 1, 5 = neurons 0-3, each (p0 + p1) + (p2 + p3).
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0);
  for (int i = 0; i < RB; ++i) {
    const __m256 pairs = _mm256_hadd_ps(lo[i], hi[i]);
    const __m256 sums = _mm256_permutevar8x32_ps(_mm256_hadd_ps(pairs, pairs), order);
    _mm_storeu_ps(z + i * ld, _mm256_castps256_ps128(sums));
  }
}

template <int G>
void TailChainsForward(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  thread_local std::vector<float> packed;
  packed.resize(static_cast<size_t>(16) * ((d + G - 1) / G));
  portable::PackTailWeights(wt, d, q, G, packed.data());
  int r = 0;
  for (; r + 4 <= R; r += 4) TailBlock<G, 4>(rows + r, d, packed.data(), q, z + r * q + q - 4);
  for (; r < R; ++r) TailBlock<G, 1>(rows + r, d, packed.data(), q, z + r * q + q - 4);
}

#pragma GCC pop_options

}  // namespace

void ReluOutputs(const float* z, int R, int q, const float* a, float* h) {
  ReluOutputsImpl(z, R, q, a, h);
}

void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g) {
  ReluGradientImpl(z, R, q, a, coef, extra, g);
}

void RowsTimesWtBroadcast(const float* const* rows, int R, int d, const float* wt, int q,
                          float* z) {
  // Chunks of at most 24 neurons (three vectors), not a pass of 16 and a latency-bound one of 4
  // (12-13 % faster on Zen 5 with PMOE_KERNELS=avx2, when q = 20 was one chunk of 20). Where
  // the tail has G > 1 chains (row_kernels_portable.hpp) it has a pass of its own.
  const int G = portable::TailChains(q), chained = G > 1 ? q - q % 16 : q;
  if (G == 4) TailChainsForward<4>(rows, R, d, wt, q, z);
  for (int k0 = 0; k0 < chained;) {
    const int width = std::min(24, chained - k0);
    if (width > 16)
      ForwardChunk<3>(rows, R, d, wt + k0, q, width, z + k0);
    else if (width > 8)
      ForwardChunk<2>(rows, R, d, wt + k0, q, width, z + k0);
    else
      ForwardChunk<1>(rows, R, d, wt + k0, q, width, z + k0);
    k0 += width;
  }
}

void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z) {
  // Rows per block: RB (Q + 1) + 1 of the 16 registers at most (one half at a time).
  switch (q) {
    case 1:
      DotForward<1, 7>(rows, R, d, w, z);
      break;
    case 2:
      DotForward<2, 4>(rows, R, d, w, z);
      break;
    case 3:
      DotForward<3, 3>(rows, R, d, w, z);
      break;
    case 4:
      DotForward<4, 3>(rows, R, d, w, z);
      break;
    case 5:
      DotForward<5, 2>(rows, R, d, w, z);
      break;
    case 6:
      DotForward<6, 2>(rows, R, d, w, z);
      break;
    case 9:
      DotForward<9, 1>(rows, R, d, w, z);
      break;
    case 10:
      DotForward<10, 1>(rows, R, d, w, z);
      break;
    case 11:
      DotForward<11, 1>(rows, R, d, w, z);
      break;
    default:
      PMOE_CHECK(false) << "no dot-product forward for q = " << q;
  }
}

void WeightGradient(const float* const* rows, int R, int d, const float* g, int q, float* dw,
                    int k_stride, int j_stride) {
  for (int j0 = 0; j0 < d; j0 += 32) {
    const int columns = std::min(32, d - j0);
    int k0 = 0;
    for (; k0 + 2 <= q; k0 += 2)
      GradientBlock<2, 4>(rows, R, j0, columns, g, q, k0, dw, k_stride, j_stride);
    if (k0 < q) GradientBlock<1, 4>(rows, R, j0, columns, g, q, k0, dw, k_stride, j_stride);
  }
}

}  // namespace pmoe::avx2
