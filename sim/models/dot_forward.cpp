// The forward product for experts of few neurons as dot products along the patch dimension.
// Broadcasting x[r][j] against a q-wide weight row fills q of a vector's 16 lanes; here every
// FMA fills all 16 lanes (16 consecutive j of one row and one neuron), and each (row, neuron)
// accumulator's 16 lanes are summed at the end by a transpose-and-add tree that sums 16
// accumulators at once: lanes j and j + 8 first, then SumLanes8's tree on the 8 sums.
// Numerics version 8: 512-bit vectors (16 partial sums per dot product) instead of 256-bit ones
// (8): on a core with full-width 512-bit FMA units (the Intel Xeon it was measured on, Zen 5)
// half the FMAs, and a tree of sums per 16 accumulators instead of 8. Not measured on Zen 4,
// whose 512-bit shuffles cost two 256-bit ones (docs/engineering/numerics-8-joint.md).
#include "pmoe/models/dot_forward.hpp"

#include <immintrin.h>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/models/row_kernels.hpp"
#include "row_kernels_avx2.hpp"
#include "row_kernels_portable.hpp"

namespace pmoe {
namespace {

// Compiled for AVX-512 whatever the build's -march, and run only on CPUs that have it
// (kernel_path.cpp); portable::RowsTimesW computes the same bits elsewhere.
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl")
// GCC 12's `_mm512_undefined_ps()` merge operands (GCC bug 105593): see row_lanes_forward.cpp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

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
    const __m512d lo =
        _mm512_unpacklo_pd(_mm512_castps_pd(pairs[2 * i]), _mm512_castps_pd(pairs[2 * i + 1]));
    const __m512d hi =
        _mm512_unpackhi_pd(_mm512_castps_pd(pairs[2 * i]), _mm512_castps_pd(pairs[2 * i + 1]));
    quads[i] = _mm512_add_ps(_mm512_castpd_ps(lo), _mm512_castpd_ps(hi));
  }
  // Per 256-bit half, SumLanes8's permute2f128 pair: 128-bit lanes (q0.0, q1.0 | q0.2, q1.2)
  // and (q0.1, q1.1 | q0.3, q1.3), as 32-bit lane indices (16 + i: lane i of q1).
  const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
  const __m512i second =
      _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
  return _mm512_add_ps(_mm512_permutex2var_ps(quads[0], first, quads[1]),
                       _mm512_permutex2var_ps(quads[0], second, quads[1]));
}

// RB rows against Q neurons: RB*Q accumulators, stored as RB*Q consecutive z values. The
// stores are whole vectors: a block's padding lanes spill into the next rows' z, which their
// block overwrites later; only where a vector would pass z's end (`room` floats) is it masked.
// Where a block's ReLU outputs find their terms in its vector of z (lane r Q + c: row r, neuron
// c): `upper` moves p[c + 4] onto lane c of each row (zero past Q), pick[i] moves each row's
// lane i onto lane r (zero past Q), `tile` spreads a[c] over every row's lane c.
struct OutputLanes {
  __m512i upper, pick[4], tile;
  __mmask16 upper_mask, pick_mask, tile_mask;
};

template <int Q, int RB>
OutputLanes MakeOutputLanes() {
  alignas(64) int upper[16] = {}, pick[4][16] = {}, tile[16] = {};
  unsigned upper_mask = 0, tile_mask = 0;
  for (int r = 0; r < RB; ++r)
    for (int c = 0; c < Q; ++c) {
      tile[r * Q + c] = c;
      tile_mask |= 1u << (r * Q + c);
      if (c + 4 < Q) {
        upper[r * Q + c] = r * Q + c + 4;
        upper_mask |= 1u << (r * Q + c);
      }
    }
  for (int i = 0; i < 4; ++i)
    for (int r = 0; r < RB; ++r) pick[i][r] = r * Q + i;
  OutputLanes lanes;
  lanes.upper = _mm512_load_si512(upper);
  for (int i = 0; i < 4; ++i) lanes.pick[i] = _mm512_load_si512(pick[i]);
  lanes.tile = _mm512_load_si512(tile);
  lanes.upper_mask = static_cast<__mmask16>(upper_mask);
  lanes.pick_mask = static_cast<__mmask16>((1u << RB) - 1);
  lanes.tile_mask = static_cast<__mmask16>(tile_mask);
  return lanes;
}

// h[r] for the block's RB rows (Q <= 8) from its z, with ReluOutputs' bits: Avx512ReluOutputs
// forms p[c] = fma(max(z, +0), a[c], +0) (never -0) in a 16-lane vector, +0 past Q, and sums it
// by SumLanes16: its halves add +0 to each p[c] (no change), its quarters give t[c] = p[c + 4]
// + p[c] (c < 4), then h = (t[0] + t[2]) + (t[1] + t[3]). Here the same sums, RB rows at once.
template <int Q>
inline void BlockOutputs(__m512 sums, __m512 a_tiled, const OutputLanes& lanes, int rows,
                         float* h) {
  const __m512 zero = _mm512_setzero_ps();
  const __m512 p = _mm512_fmadd_ps(_mm512_max_ps(sums, zero), a_tiled, zero);
  const __m512 t = _mm512_add_ps(_mm512_maskz_permutexvar_ps(lanes.upper_mask, lanes.upper, p), p);
  __m512 ti[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i)  // t[i] of each row in lane r; +0 past Q, as in Avx512ReluOutputs
    ti[i] = i < Q ? _mm512_maskz_permutexvar_ps(lanes.pick_mask, lanes.pick[i], t) : zero;
  const __m512 out = _mm512_add_ps(_mm512_add_ps(ti[0], ti[2]), _mm512_add_ps(ti[1], ti[3]));
  _mm512_mask_storeu_ps(h, static_cast<__mmask16>((1u << rows) - 1), out);
}

// With h, also each row's ReLU output h[r] = sum_c a[c] max(z[r][c], 0) (Q <= 8, RB Q <= 16).
template <int Q, int RB>
void DotBlock(const float* const* rows, int d, const float* w, float* z, int room,
              const OutputLanes* lanes = nullptr, __m512 a_tiled = _mm512_setzero_ps(),
              float* h = nullptr) {
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
      __m512 wv = _mm512_maskz_loadu_ps(m, w + c * d + j);
      // Held in a register: GCC would fold the load into each row's FMA, RB loads instead of one
      // (two load ports, two FMA units: the loads were the limit).
      asm("" : "+v"(wv));
#pragma GCC unroll 16
      for (int r = 0; r < RB; ++r) acc[r * Q + c] = _mm512_fmadd_ps(x[r], wv, acc[r * Q + c]);
    }
  };
  for (int j = 0; j < full; j += 16) step(j, 0xffff);
  if (full < d) step(full, static_cast<__mmask16>((1u << (d - full)) - 1));
#pragma GCC unroll 2
  for (int g = 0; g < kGroups; ++g) {
    const __m512 sums = SumLanes16x16(acc + 16 * g);
    if constexpr (Q <= 8 && kGroups == 1)
      if (h) BlockOutputs<Q>(sums, a_tiled, *lanes, RB, h);
    if (room - 16 * g >= 16)
      _mm512_storeu_ps(z + 16 * g, sums);
    else
      _mm512_mask_storeu_ps(z + 16 * g, static_cast<__mmask16>((1u << (room - 16 * g)) - 1), sums);
  }
}

template <int Q, int RB>
void DotForward(const float* const* rows, int R, int d, const float* w, float* z, const float* a,
                float* h) {
  if constexpr (Q <= 8) {
    if (h) {  // the fused outputs: blocks of RB rows, then single rows
      static_assert(RB * Q <= 16, "one vector of z per block");
      const OutputLanes lanes = MakeOutputLanes<Q, RB>(), single = MakeOutputLanes<Q, 1>();
      const __m512 av = _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << Q) - 1), a);
      const __m512 tiled = _mm512_maskz_permutexvar_ps(lanes.tile_mask, lanes.tile, av);
      const __m512 tiled1 = _mm512_maskz_permutexvar_ps(single.tile_mask, single.tile, av);
      int r = 0;
      for (; r + RB <= R; r += RB)
        DotBlock<Q, RB>(rows + r, d, w, z + r * Q, (R - r) * Q, &lanes, tiled, h + r);
      for (; r < R; ++r)
        DotBlock<Q, 1>(rows + r, d, w, z + r * Q, (R - r) * Q, &single, tiled1, h + r);
      return;
    }
  }
  int r = 0;
  for (; r + RB <= R; r += RB) DotBlock<Q, RB>(rows + r, d, w, z + r * Q, (R - r) * Q);
  for (; r < R; ++r) DotBlock<Q, 1>(rows + r, d, w, z + r * Q, (R - r) * Q);
  if (h) ReluOutputs(z, R, Q, a, h);
}

// With h (not null), also h = ReluOutputs(z, a), fused where q <= 8.
void Avx512RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z,
                      const float* a, float* h) {
  // Rows per block: RB*Q accumulators, at most 16 (one tree of sums) or at most 24.
  switch (q) {
    case 1:
      DotForward<1, 16>(rows, R, d, w, z, a, h);
      break;
    case 2:
      DotForward<2, 8>(rows, R, d, w, z, a, h);
      break;
    case 3:
      DotForward<3, 5>(rows, R, d, w, z, a, h);
      break;
    case 4:
      DotForward<4, 4>(rows, R, d, w, z, a, h);
      break;
    case 5:
      DotForward<5, 3>(rows, R, d, w, z, a, h);
      break;
    case 6:
      DotForward<6, 2>(rows, R, d, w, z, a, h);
      break;
    case 9:
      DotForward<9, 2>(rows, R, d, w, z, a, h);
      break;
    case 10:
      DotForward<10, 2>(rows, R, d, w, z, a, h);
      break;
    case 11:
      DotForward<11, 2>(rows, R, d, w, z, a, h);
      break;
    default:
      PMOE_CHECK(false) << "no dot-product forward for q = " << q;
  }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace

// The same choice on both paths: the two orders of summation give different bits.
bool DotForwardFaster(int q) { return (q >= 1 && q <= 6) || (q >= 9 && q <= 11); }

void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z,
                const float* a, float* h) {
  PMOE_CHECK(DotForwardFaster(q)) << "no dot-product forward for q = " << q;
  switch (ActiveKernelPath()) {
    case KernelPath::kAvx512:
      Avx512RowsTimesW(rows, R, d, w, q, z, a, h);
      return;
    case KernelPath::kAvx2:
      avx2::RowsTimesW(rows, R, d, w, q, z);
      break;
    case KernelPath::kPortable:
      portable::RowsTimesW(rows, R, d, w, q, z);
      break;
  }
  if (h) ReluOutputs(z, R, q, a, h);
}

}  // namespace pmoe
