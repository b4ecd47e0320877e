// The forward product z = X W^T with the vector lanes along the rows: 32 rows at a time (two
// vectors), each neuron's accumulator a vector of rows. The broadcast kernel (row_kernels.cpp)
// puts the neurons in the lanes instead, which fills its vectors only when q is a multiple of 16:
// q = 20 leaves 12 of 32 lanes idle. Here every FMA fills its 16 lanes whatever q. The block's
// rows are transposed once, 16 x 16 at a time, into a buffer (columns of 32 rows), then read by
// passes of at most 12 neurons (24 accumulators: each broadcast weight serves two FMAs); the
// result is transposed back on its way to z. The transposes are the price: passes alone run at
// 86 % of the FMA peak, the whole kernel at about 60 % (q = 20, d = 64, Zen 5).
// Each z[r][k] is the same chain of FMAs as in the broadcast kernel, fma(x[r][j], w[j][k], acc)
// for j = 0, 1, ..., d-1 from acc = 0, so the two give the same bits and either may run.
#include "pmoe/models/row_lanes_forward.hpp"

#include <immintrin.h>

#include <vector>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl")
// GCC 12 warns that its own AVX-512 intrinsics read an uninitialized `__Y` when the file is built
// for a CPU without AVX-512 (-march=haswell, PMOE_MARCH): their `_mm512_undefined_ps()`
// placeholder for a merge operand that the full mask discards (GCC bug 105593). Nothing here
// reads an undefined value.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// v[i] (16 vectors) becomes its transpose: lane j of the new v[i] is lane i of the old v[j].
inline void Transpose16(__m512 v[16]) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {  // pairs of rows interleaved
    t[i] = _mm512_unpacklo_ps(v[i], v[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(v[i], v[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {  // then fours, within 128-bit lanes
    v[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
    v[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xee);
    v[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    v[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xee);
  }
  for (int i = 0; i < 4; ++i) {  // then 128-bit lanes across rows 0-3 / 4-7, 8-11 / 12-15
    t[i] = _mm512_shuffle_f32x4(v[i], v[i + 4], 0x88);
    t[i + 4] = _mm512_shuffle_f32x4(v[i], v[i + 4], 0xdd);
    t[i + 8] = _mm512_shuffle_f32x4(v[i + 8], v[i + 12], 0x88);
    t[i + 12] = _mm512_shuffle_f32x4(v[i + 8], v[i + 12], 0xdd);
  }
  for (int i = 0; i < 8; ++i) {
    v[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    v[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
}

// Long rows (d = 784) arrive from memory 16 at a time, more streams than the hardware
// prefetcher follows: each row is asked for four tiles ahead.
constexpr int kPrefetchAhead = 64;  // floats

// Up to 16 NB rows of the block, transposed: columns[j][16 NB] holds the rows' element j
// (rows past `live` read rows[0]; they are never stored).
template <int NB>
void TransposeRows(const float* const* rows, int live, int d, float* columns) {
  for (int b = 0; b < NB; ++b) {
    const float* src[16];
    for (int i = 0; i < 16; ++i) src[i] = rows[16 * b + i < live ? 16 * b + i : 0];
    for (int j0 = 0; j0 < d; j0 += 16) {
      const int width = d - j0 < 16 ? d - j0 : 16;
      const __mmask16 m = static_cast<__mmask16>((1u << width) - 1);
      __m512 v[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; ++i) v[i] = _mm512_maskz_loadu_ps(m, src[i] + j0);
      if (j0 + kPrefetchAhead < d)
#pragma GCC unroll 16
        for (int i = 0; i < 16; ++i)
          _mm_prefetch(reinterpret_cast<const char*>(src[i] + j0 + kPrefetchAhead), _MM_HINT_T0);
      Transpose16(v);
      for (int jj = 0; jj < width; ++jj)
        _mm512_storeu_ps(columns + (j0 + jj) * 16 * NB + 16 * b, v[jj]);
    }
  }
}

// Neurons [k0, k0 + QA) for the NB vectors of rows: 2 QA FMAs per column, QA broadcasts and NB
// loads. Results go to zt[k][16 NB].
template <int QA, int NB>
void NeuronPass(const float* columns, int d, const float* wt, int q, int k0, float* zt) {
  __m512 acc[NB][QA];
#pragma GCC unroll 24
  for (int k = 0; k < QA; ++k)
#pragma GCC unroll 2
    for (int b = 0; b < NB; ++b) acc[b][k] = _mm512_setzero_ps();
  const float* w = wt + k0;
  for (int j = 0; j < d; ++j, w += q, columns += 16 * NB) {
    __m512 x[NB];
#pragma GCC unroll 2
    for (int b = 0; b < NB; ++b) x[b] = _mm512_loadu_ps(columns + 16 * b);
#pragma GCC unroll 24
    for (int k = 0; k < QA; ++k) {
      const __m512 wk = _mm512_set1_ps(w[k]);
#pragma GCC unroll 2
      for (int b = 0; b < NB; ++b) acc[b][k] = _mm512_fmadd_ps(x[b], wk, acc[b][k]);
    }
  }
#pragma GCC unroll 24
  for (int k = 0; k < QA; ++k)
#pragma GCC unroll 2
    for (int b = 0; b < NB; ++b) _mm512_storeu_ps(zt + (k0 + k) * 16 * NB + 16 * b, acc[b][k]);
}

template <int NB>
void PassOf(int size, const float* columns, int d, const float* wt, int q, int k0, float* zt) {
  switch (size) {
#define PMOE_PASS_CASE(QA)                         \
  case QA:                                         \
    NeuronPass<QA, NB>(columns, d, wt, q, k0, zt); \
    return;
    PMOE_PASS_CASE(4)
    PMOE_PASS_CASE(5)
    PMOE_PASS_CASE(6)
    PMOE_PASS_CASE(7)
    PMOE_PASS_CASE(8)
    PMOE_PASS_CASE(9)
    PMOE_PASS_CASE(10)
    PMOE_PASS_CASE(11)
    PMOE_PASS_CASE(12)
#undef PMOE_PASS_CASE
  }
  PMOE_CHECK(false) << "neuron pass of " << size;
}

// zt[k][16 NB] back to the rows of z, 16 at a time: neurons 0-15 by a transpose, the rest
// one by one.
template <int NB>
void StoreRows(const float* zt, int live, int q, float* z) {
  for (int b = 0; b < NB && 16 * b < live; ++b) {
    const int rows = live - 16 * b < 16 ? live - 16 * b : 16;
    __m512 out[16];
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k)
      out[k] = k < q ? _mm512_loadu_ps(zt + k * 16 * NB + 16 * b) : _mm512_setzero_ps();
    Transpose16(out);
    const int head = q < 16 ? q : 16;
    const __mmask16 m = static_cast<__mmask16>((1u << head) - 1);
    float* row = z + 16 * b * q;
    for (int i = 0; i < rows; ++i) _mm512_mask_storeu_ps(row + i * q, m, out[i]);
    for (int i = 0; i < rows; ++i)
      for (int k = 16; k < q; ++k) row[i * q + k] = zt[k * 16 * NB + 16 * b + i];
  }
}

// h[r] = sum_k a[k] max(z[r][k], 0) from zt, 16 rows per vector, in ReluOutputs's order
// (row_kernels.cpp): lane t of its accumulator takes neurons t, t + 16, t + 32 by FMAs from +0
// (a lane past q takes fma(0, 0, acc), as from its masked loads), then the 16 lanes are added by
// SumLanes16's tree: halves, quarters, lanes 0+2 and 1+3, then those two. Here each of those
// sums is one vector addition over 16 rows.
template <int NB>
void ReluOutputRows(const float* zt, int live, int q, const float* a, float* h) {
  const __m512 zero = _mm512_setzero_ps();
  for (int b = 0; b < NB && 16 * b < live; ++b) {
    const int rows = live - 16 * b < 16 ? live - 16 * b : 16;
    const int rounds = (q + 15) / 16;  // of ReluOutputs' loop over the neurons
    __m512 lane[16];
    for (int t = 0; t < 16; ++t) {
      lane[t] = zero;
      for (int round = 0; round < rounds; ++round) {
        const int k = 16 * round + t;
        if (k < q) {
          const __m512 relu = _mm512_max_ps(_mm512_loadu_ps(zt + k * 16 * NB + 16 * b), zero);
          lane[t] = _mm512_fmadd_ps(relu, _mm512_set1_ps(a[k]), lane[t]);
        } else {
          lane[t] = _mm512_fmadd_ps(zero, zero, lane[t]);
        }
      }
    }
    __m512 halves[8], quarters[4];
    for (int i = 0; i < 8; ++i) halves[i] = _mm512_add_ps(lane[8 + i], lane[i]);
    for (int i = 0; i < 4; ++i) quarters[i] = _mm512_add_ps(halves[4 + i], halves[i]);
    const __m512 sum = _mm512_add_ps(_mm512_add_ps(quarters[0], quarters[2]),
                                     _mm512_add_ps(quarters[1], quarters[3]));
    _mm512_mask_storeu_ps(h + 16 * b, static_cast<__mmask16>((1u << rows) - 1), sum);
  }
}

// 16 NB rows against all q neurons, in passes of at most 12 neurons (24 accumulators), as even
// as possible; z and h (with the output weights a) each when asked for.
template <int NB>
void Block(const float* const* rows, int live, int d, const float* wt, int q, float* z,
           const float* a, float* h, std::vector<float>& columns, std::vector<float>& zt) {
  TransposeRows<NB>(rows, live, d, columns.data());
  const int passes = (q + 11) / 12, small = q / passes, large = q % passes;
  for (int pass = 0, k0 = 0; pass < passes; ++pass) {
    const int size = small + (pass < large);
    PassOf<NB>(size, columns.data(), d, wt, q, k0, zt.data());
    k0 += size;
  }
  if (z != nullptr) StoreRows<NB>(zt.data(), live, q, z);
  if (h != nullptr) ReluOutputRows<NB>(zt.data(), live, q, a, h);
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace

bool RowLanesForwardTakes(int q) { return q >= 4 && q <= 48; }

// Measured against the broadcast kernel on Zen 5 (d = 64 and 784, 80-120 rows; GFLOP/s, 215
// peak): q = 7: 93 vs 73, q = 20: 128 vs 100, q = 36: 131 vs 131, q = 16: 133 vs 152, q = 28: 126
// vs 175. Those broadcast figures were taken while its broadcasts went through a register (a
// shuffle each). With broadcasts from memory (numerics-8-rows.md), on the Intel Xeon (model 167,
// GFLOP/s, 240 peak, broadcast vs rows in lanes): d = 64: q = 17: 114 vs 124, q = 20: 133 vs 130,
// q = 24: 159 vs 126, q = 33: 152 vs 120, q = 36: 166 vs 121; d = 784: q = 20: 137 vs 99,
// q = 36: 168 vs 125; q = 7, 8 even at d = 64. Rows in lanes keep q = 7, 8 (joint pMoE's gating)
// and 17, where the broadcast kernel's last vector holds one neuron.
bool RowLanesForwardFaster(int q) { return q == 7 || q == 8 || q == 17; }

void RowLanesForward(const float* const* rows, int R, int d, const float* wt, int q, float* z,
                     const float* a, float* h) {
  PMOE_CHECK(RowLanesForwardTakes(q)) << "no row-lanes forward for q = " << q;
  PMOE_CHECK(z != nullptr || h != nullptr) << "row-lanes forward with no output";
  // Scratch kept between calls (a trial calls this thousands of times).
  thread_local std::vector<float> columns, zt;
  columns.resize(static_cast<size_t>(32) * d);
  zt.resize(static_cast<size_t>(32) * q);
  int r = 0;
  for (; r + 16 < R; r += 32)
    Block<2>(rows + r, R - r < 32 ? R - r : 32, d, wt, q, z ? z + r * q : nullptr, a,
             h ? h + r : nullptr, columns, zt);
  if (r < R)
    Block<1>(rows + r, R - r, d, wt, q, z ? z + r * q : nullptr, a, h ? h + r : nullptr, columns,
             zt);
}

}  // namespace pmoe
