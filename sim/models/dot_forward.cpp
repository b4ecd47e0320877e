// The forward product for experts of few neurons as dot products along the patch dimension.
// Broadcasting x[r][j] against a q-wide weight row fills q of a vector's 16 lanes; here every
// FMA fills all 16 lanes (16 consecutive j of one row and one neuron), and each (row, neuron)
// accumulator's 16 lanes are summed at the end by a transpose-and-add tree that sums 16
// accumulators at once: lanes j and j + 8 first, then SumLanes8's tree on the 8 sums.
// Numerics version 8: 512-bit vectors (16 partial sums per dot product) instead of 256-bit ones
// (8): on a core with full-width 512-bit FMA units (Intel, Zen 5) half the FMAs, and a tree of
// sums per 16 accumulators instead of 8 (docs/engineering/numerics-8-joint.md).
#include "pmoe/models/dot_forward.hpp"

#include <immintrin.h>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "row_kernels_avx2.hpp"
#include "row_kernels_portable.hpp"

namespace pmoe {
namespace {

// Compiled for AVX-512 whatever the build's -march, and run only on CPUs that have it
// (kernel_path.cpp); portable::RowsTimesW computes the same bits elsewhere.
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl")

#include "sum_lanes8.inc"  // SumLanes8, compiled here for AVX-512

// Sixteen 16-lane accumulators -> one vector of their lane sums, in order: each accumulator's
// lanes j and j + 8 added first (the AVX2 twin adds its two 8-lane halves), then SumLanes8's
// tree in each 256-bit half (accumulators 0-7 in the low half, 8-15 in the high one).
inline __m512 SumLanes16x16(const __m512* a) {
  __m512 h[8], pairs[4], quads[2];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i)  // [a_i lanes 0-7 | a_{i+8} lanes 0-7] + the same of lanes 8-15
    h[i] = _mm512_add_ps(_mm512_shuffle_f32x4(a[i], a[i + 8], 0x44),
                         _mm512_shuffle_f32x4(a[i], a[i + 8], 0xee));
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)
    pairs[i] = _mm512_add_ps(_mm512_unpacklo_ps(h[2 * i], h[2 * i + 1]),
                             _mm512_unpackhi_ps(h[2 * i], h[2 * i + 1]));
#pragma GCC unroll 2
  for (int i = 0; i < 2; ++i) {
    const __m512d lo = _mm512_unpacklo_pd(_mm512_castps_pd(pairs[2 * i]),
                                          _mm512_castps_pd(pairs[2 * i + 1]));
    const __m512d hi = _mm512_unpackhi_pd(_mm512_castps_pd(pairs[2 * i]),
                                          _mm512_castps_pd(pairs[2 * i + 1]));
    quads[i] = _mm512_add_ps(_mm512_castpd_ps(lo), _mm512_castpd_ps(hi));
  }
  // Per 256-bit half, SumLanes8's permute2f128 pair: 128-bit lanes (q0.0, q1.0 | q0.2, q1.2)
  // and (q0.1, q1.1 | q0.3, q1.3), as 32-bit lane indices (16 + i: lane i of q1).
  const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
  const __m512i second = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30,
                                           31);
  return _mm512_add_ps(_mm512_permutex2var_ps(quads[0], first, quads[1]),
                       _mm512_permutex2var_ps(quads[0], second, quads[1]));
}

// RB rows against Q neurons: RB*Q accumulators, stored as RB*Q consecutive z values. The
// stores are whole vectors: a block's padding lanes spill into the next rows' z, which their
// block overwrites later; only where a vector would pass z's end (`room` floats) is it masked.
template <int Q, int RB>
void DotBlock(const float* const* rows, int d, const float* w, float* z, int room) {
  constexpr int kAcc = RB * Q, kGroups = (kAcc + 15) / 16;
  __m512 acc[kGroups * 16];
#pragma GCC unroll 32
  for (int i = 0; i < kGroups * 16; ++i) acc[i] = _mm512_setzero_ps();
  const int full = d & ~15;
  auto step = [&](int j, __mmask16 m) {
    __m512 x[RB];
#pragma GCC unroll 16
    for (int r = 0; r < RB; ++r) x[r] = _mm512_maskz_loadu_ps(m, rows[r] + j);
#pragma GCC unroll 16
    for (int c = 0; c < Q; ++c) {
      const __m512 wv = _mm512_maskz_loadu_ps(m, w + c * d + j);
#pragma GCC unroll 16
      for (int r = 0; r < RB; ++r) acc[r * Q + c] = _mm512_fmadd_ps(x[r], wv, acc[r * Q + c]);
    }
  };
  for (int j = 0; j < full; j += 16) step(j, 0xffff);
  if (full < d) step(full, static_cast<__mmask16>((1u << (d - full)) - 1));
#pragma GCC unroll 2
  for (int g = 0; g < kGroups; ++g) {
    const __m512 sums = SumLanes16x16(acc + 16 * g);
    if (room - 16 * g >= 16)
      _mm512_storeu_ps(z + 16 * g, sums);
    else
      _mm512_mask_storeu_ps(z + 16 * g, static_cast<__mmask16>((1u << (room - 16 * g)) - 1),
                            sums);
  }
}

template <int Q, int RB>
void DotForward(const float* const* rows, int R, int d, const float* w, float* z) {
  int r = 0;
  for (; r + RB <= R; r += RB) DotBlock<Q, RB>(rows + r, d, w, z + r * Q, (R - r) * Q);
  for (; r < R; ++r) DotBlock<Q, 1>(rows + r, d, w, z + r * Q, (R - r) * Q);
}

void Avx512RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z) {
  // Rows per block: RB*Q accumulators, at most 16 (one tree of sums) or at most 24.
  switch (q) {
    case 1:
      DotForward<1, 16>(rows, R, d, w, z);
      break;
    case 2:
      DotForward<2, 8>(rows, R, d, w, z);
      break;
    case 3:
      DotForward<3, 5>(rows, R, d, w, z);
      break;
    case 4:
      DotForward<4, 4>(rows, R, d, w, z);
      break;
    case 5:
      DotForward<5, 3>(rows, R, d, w, z);
      break;
    case 6:
      DotForward<6, 2>(rows, R, d, w, z);
      break;
    case 9:
      DotForward<9, 2>(rows, R, d, w, z);
      break;
    case 10:
      DotForward<10, 2>(rows, R, d, w, z);
      break;
    case 11:
      DotForward<11, 2>(rows, R, d, w, z);
      break;
    default:
      PMOE_CHECK(false) << "no dot-product forward for q = " << q;
  }
}

#pragma GCC pop_options

}  // namespace

// The same choice on both paths: the two orders of summation give different bits.
bool DotForwardFaster(int q) { return (q >= 1 && q <= 6) || (q >= 9 && q <= 11); }

void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z) {
  PMOE_CHECK(DotForwardFaster(q)) << "no dot-product forward for q = " << q;
  switch (ActiveKernelPath()) {
    case KernelPath::kAvx512:
      Avx512RowsTimesW(rows, R, d, w, q, z);
      break;
    case KernelPath::kAvx2:
      avx2::RowsTimesW(rows, R, d, w, q, z);
      break;
    case KernelPath::kPortable:
      portable::RowsTimesW(rows, R, d, w, q, z);
      break;
  }
}

}  // namespace pmoe
