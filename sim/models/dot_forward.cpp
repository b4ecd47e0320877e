// The forward product for experts of few neurons as dot products along the patch dimension.
// Broadcasting x[r][j] against a q-wide weight row fills q of a vector's 8 lanes; here every
// FMA fills all 8 lanes (8 consecutive j of one row and one neuron), and each (row, neuron)
// accumulator's 8 lanes are summed at the end by a transpose-and-add tree that sums 8
// accumulators at once. Measured on Zen 4 (d = 64, 120 routed rows, cycles per row and neuron):
// q = 5 8.7 -> 6.5, q = 2 21.3 -> 9.6, q = 10 6.7 -> 5.6; from q = 12 on, and at q = 7-8, the
// broadcast kernel is as fast or faster. 256-bit vectors: on Zen 4 a 512-bit shuffle costs two
// 256-bit ones, and the tree is mostly shuffles.
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

// RB rows against Q neurons: RB*Q accumulators, stored as RB*Q consecutive z values. The
// stores are whole vectors: a block's padding lanes spill into the next rows' z, which their
// block overwrites later; only where a vector would pass z's end (`room` floats) is it masked.
template <int Q, int RB>
void DotBlock(const float* const* rows, int d, const float* w, float* z, int room) {
  constexpr int kAcc = RB * Q, kGroups = (kAcc + 7) / 8;
  __m256 acc[kGroups * 8];
#pragma GCC unroll 24
  for (int i = 0; i < kGroups * 8; ++i) acc[i] = _mm256_setzero_ps();
  const int full = d & ~7;
  auto step = [&](int j, __mmask8 m) {
    __m256 x[RB];
#pragma GCC unroll 16
    for (int r = 0; r < RB; ++r) x[r] = _mm256_maskz_loadu_ps(m, rows[r] + j);
#pragma GCC unroll 16
    for (int c = 0; c < Q; ++c) {
      const __m256 wv = _mm256_maskz_loadu_ps(m, w + c * d + j);
#pragma GCC unroll 16
      for (int r = 0; r < RB; ++r) acc[r * Q + c] = _mm256_fmadd_ps(x[r], wv, acc[r * Q + c]);
    }
  };
  for (int j = 0; j < full; j += 8) step(j, 0xff);
  if (full < d) step(full, static_cast<__mmask8>((1u << (d - full)) - 1));
#pragma GCC unroll 3
  for (int g = 0; g < kGroups; ++g) {
    const __m256 sums = SumLanes8(acc + 8 * g);
    if (room - 8 * g >= 8)
      _mm256_storeu_ps(z + 8 * g, sums);
    else
      _mm256_mask_storeu_ps(z + 8 * g, static_cast<__mmask8>((1u << (room - 8 * g)) - 1), sums);
  }
}

template <int Q, int RB>
void DotForward(const float* const* rows, int R, int d, const float* w, float* z) {
  int r = 0;
  for (; r + RB <= R; r += RB) DotBlock<Q, RB>(rows + r, d, w, z + r * Q, (R - r) * Q);
  for (; r < R; ++r) DotBlock<Q, 1>(rows + r, d, w, z + r * Q, (R - r) * Q);
}

void Avx512RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z) {
  // Rows per block: the fastest measured for each q (RB*Q accumulators, at most 24).
  switch (q) {
    case 1:
      DotForward<1, 8>(rows, R, d, w, z);
      break;
    case 2:
      DotForward<2, 8>(rows, R, d, w, z);
      break;
    case 3:
      DotForward<3, 2>(rows, R, d, w, z);
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
