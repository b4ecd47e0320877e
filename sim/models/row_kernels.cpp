// AVX-512 micro-kernels for the experts' products (see row_kernels.hpp).
// Forward: a row of q neurons is held as NZ full 16-lane vectors plus a tail: none, an 8-lane
// (ymm) vector when 1-8 neurons remain, a masked 16-lane vector when 9-15 remain. The 8-lane
// tail matters on cores that split 512-bit operations into two 256-bit halves (AMD Zen 4): q = 20
// costs 3 half-slots instead of 4, q = 40 costs 5 instead of 6. Each output element is the same
// chain of FMAs over j whatever the vector holding it. Register blocking: 8 rows at a time.
// For q = 7, 8 and 17 the rows go in the lanes instead (row_lanes_forward.cpp,
// RowLanesForwardFaster): the same chains, the same bits.
// Weight gradient: vectorized over the patch dimension instead, 64 columns x up to 6 neurons in
// 24 accumulators, each row segment read once per block: full lanes whatever q (joint pMoE's
// q = 5 would fill 5 of 16 lanes the other way), and rows read as whole vectors.
#include "pmoe/models/row_kernels.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "pmoe/core/errors.hpp"
#include "pmoe/models/dot_forward.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/models/row_lanes_forward.hpp"
#include "row_kernels_avx2.hpp"
#include "row_kernels_portable.hpp"

namespace pmoe {
namespace {

// Compiled for AVX-512 whatever the build's -march, and run only on CPUs that have it
// (kernel_path.cpp); elsewhere the portable twins compute the same bits.
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl")

constexpr int kMaxWidth = 48;  // neurons per forward pass: three 16-lane vectors

// Where element (k, j) of a weight gradient goes: dw[k * k_stride + j * j_stride].
struct GradientOut {
  float* dw;
  int k_stride, j_stride;
};

// The tail of a q-wide row after its full 16-lane vectors, as a vector type with masked access.
struct NoTail {
  static constexpr int kVectors = 0;
  using V = __m512;  // unused
};
struct HalfTail {  // 1-8 lanes in a 256-bit vector
  static constexpr int kVectors = 1;
  using V = __m256;
  static V Zero() { return _mm256_setzero_ps(); }
  static V Set1(float x) { return _mm256_set1_ps(x); }
  static V Low(__m512 v) { return _mm512_castps512_ps256(v); }
  static V Load(__mmask8 m, const float* p) { return _mm256_maskz_loadu_ps(m, p); }
  static void Store(__mmask8 m, float* p, V v) { _mm256_mask_storeu_ps(p, m, v); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
};
struct FullTail {  // 9-15 lanes in a masked 512-bit vector
  static constexpr int kVectors = 1;
  using V = __m512;
  static V Zero() { return _mm512_setzero_ps(); }
  static V Set1(float x) { return _mm512_set1_ps(x); }
  static V Low(__m512 v) { return v; }
  static V Load(__mmask16 m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void Store(__mmask16 m, float* p, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
};

// The lanes of the tail vector used by a q-wide row.
unsigned TailMask(int q) { return (1u << (q % 16)) - 1; }

// The 16 lanes' sum in a fixed tree (halves, quarters, then lanes 0+2 and 1+3): the one
// GCC's _mm512_reduce_add_ps uses, spelled out so that the portable twin can follow it.
inline float SumLanes16(__m512 v) {
  const __m256 halves = _mm256_add_ps(_mm512_extractf32x8_ps(v, 1), _mm512_extractf32x8_ps(v, 0));
  const __m128 quarters =
      _mm_add_ps(_mm256_extractf128_ps(halves, 1), _mm256_extractf128_ps(halves, 0));
  const __m128 pairs = _mm_add_ps(quarters, _mm_shuffle_ps(quarters, quarters, 0x4e));
  return _mm_cvtss_f32(pairs) + _mm_cvtss_f32(_mm_shuffle_ps(pairs, pairs, 0x55));
}

// RB rows at a time (RB <= 8) against NZ full vectors and the tail. With h (not null), also
// h[i] = sum_k a[k] max(z[i][k], 0) from the accumulators, by Avx512ReluOutputs' operations (FMAs
// from +0 over 16-lane chunks, lanes past q +0 in both factors, then SumLanes16): the same bits
// without a second pass over z. Only for a pass that covers the whole row (q <= 48).
template <int NZ, typename Tail, int RB>
void ForwardBlock(const float* const* rows, int d, const float* wt, int ld, unsigned tail_mask,
                  float* z, const float* a, float* h) {
  using TV = typename Tail::V;
  __m512 acc[RB][NZ > 0 ? NZ : 1];
  TV tacc[RB];
  for (int i = 0; i < RB; ++i) {
    for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_setzero_ps();
    if constexpr (Tail::kVectors) tacc[i] = Tail::Zero();
  }
  for (int j = 0; j < d; ++j) {
    const float* wrow = wt + j * ld;
    __m512 w[NZ > 0 ? NZ : 1];
    for (int v = 0; v < NZ; ++v) w[v] = _mm512_loadu_ps(wrow + 16 * v);
    TV tw;
    if constexpr (Tail::kVectors) tw = Tail::Load(tail_mask, wrow + 16 * NZ);
    for (int i = 0; i < RB; ++i) {
      // One broadcast from memory serves the row's vectors and its tail (the tail's lanes are
      // the broadcast's low lanes): a broadcast from a register would take a shuffle-port slot,
      // which Intel's cores share with the second FMA unit (16 of them per 24 FMAs at q = 40).
      const __m512 xb = _mm512_set1_ps(rows[i][j]);
      for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_fmadd_ps(xb, w[v], acc[i][v]);
      if constexpr (Tail::kVectors) tacc[i] = Tail::Fma(Tail::Low(xb), tw, tacc[i]);
    }
  }
  for (int i = 0; i < RB; ++i) {
    for (int v = 0; v < NZ; ++v) _mm512_storeu_ps(z + i * ld + 16 * v, acc[i][v]);
    if constexpr (Tail::kVectors) Tail::Store(tail_mask, z + i * ld + 16 * NZ, tacc[i]);
  }
  if (h == nullptr) return;
  const __m512 zero = _mm512_setzero_ps();
  const __mmask16 tail16 = static_cast<__mmask16>(tail_mask);
  for (int i = 0; i < RB; ++i) {
    __m512 sum = zero;
    for (int v = 0; v < NZ; ++v)
      sum = _mm512_fmadd_ps(_mm512_max_ps(acc[i][v], zero), _mm512_loadu_ps(a + 16 * v), sum);
    if constexpr (Tail::kVectors) {
      __m512 t;
      if constexpr (std::is_same_v<Tail, HalfTail>)
        t = _mm512_maskz_mov_ps(tail16, _mm512_zextps256_ps512(tacc[i]));
      else
        t = _mm512_maskz_mov_ps(tail16, tacc[i]);
      sum =
          _mm512_fmadd_ps(_mm512_max_ps(t, zero), _mm512_maskz_loadu_ps(tail16, a + 16 * NZ), sum);
    }
    h[i] = SumLanes16(sum);
  }
}

// x[j .. j + 4) of a row broadcast to every group of 4 lanes (lane 4 m + s gets x[j + s]), from
// memory (a load, no shuffle); the masked form for the last, partial group (zeros past the end).
inline __m512 GroupBroadcast(const float* x) { return _mm512_broadcast_f32x4(_mm_loadu_ps(x)); }
inline __m512 GroupBroadcastMasked(const float* x, __mmask8 m) {
  return _mm512_broadcast_f32x4(_mm_maskz_loadu_ps(m, x));
}

// The tail's neuron m in lane m (lanes past the tail +0) from its 4 chains in lanes 4 m + s:
// (p0 + p1) + (p2 + p3) (row_kernels_portable.hpp).
inline __m512 SumChains(__m512 t) {
  const __m512 u = _mm512_add_ps(t, _mm512_permute_ps(t, 0xb1));  // lanes 4m, 4m+2: pairs
  const __m512 v = _mm512_add_ps(u, _mm512_permute_ps(u, 0x4e));  // lanes 4m: both pairs
  return _mm512_maskz_permutexvar_ps(
      0x000f, _mm512_setr_epi32(0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), v);
}

// ForwardBlock for a tail of 4 neurons with G = 4 chains each (numerics version 8; q = 20, 36):
// the tail's FMAs fill all 16 lanes, one per four values of j, instead of one 4-lane FMA per j
// (at q = 20 five FMAs per row and four j where there were eight). `packed`: the tail's weights
// (PackTailWeights).
template <int NZ, int G, int RB>
void ForwardBlockChains(const float* const* rows, int d, const float* wt, int ld,
                        unsigned tail_mask, const float* packed, float* z, const float* a,
                        float* h) {
  __m512 acc[RB][NZ > 0 ? NZ : 1], tacc[RB];
  for (int i = 0; i < RB; ++i) {
    for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_setzero_ps();
    tacc[i] = _mm512_setzero_ps();
  }
  auto chained_step = [&](int j) __attribute__((always_inline)) {
    const float* wrow = wt + j * ld;
    __m512 w[NZ > 0 ? NZ : 1];
    for (int v = 0; v < NZ; ++v) w[v] = _mm512_loadu_ps(wrow + 16 * v);
    for (int i = 0; i < RB; ++i) {
      const __m512 xb = _mm512_set1_ps(rows[i][j]);
      for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_fmadd_ps(xb, w[v], acc[i][v]);
    }
  };
  int j = 0;
  for (; j + G <= d; j += G) {
    for (int s = 0; s < G; ++s) chained_step(j + s);
    const __m512 tw = _mm512_loadu_ps(packed + 16 * (j / G));
    for (int i = 0; i < RB; ++i)
      tacc[i] = _mm512_fmadd_ps(GroupBroadcast(rows[i] + j), tw, tacc[i]);
  }
  if (j < d) {
    for (int s = j; s < d; ++s) chained_step(s);
    const __m512 tw = _mm512_loadu_ps(packed + 16 * (j / G));
    const __mmask8 m = static_cast<__mmask8>((1u << (d - j)) - 1);
    for (int i = 0; i < RB; ++i)
      tacc[i] = _mm512_fmadd_ps(GroupBroadcastMasked(rows[i] + j, m), tw, tacc[i]);
  }
  const __m512 zero = _mm512_setzero_ps();
  const __mmask16 tail16 = static_cast<__mmask16>(tail_mask);
  for (int i = 0; i < RB; ++i) {
    const __m512 t = SumChains(tacc[i]);
    for (int v = 0; v < NZ; ++v) _mm512_storeu_ps(z + i * ld + 16 * v, acc[i][v]);
    _mm512_mask_storeu_ps(z + i * ld + 16 * NZ, tail16, t);
    if (h == nullptr) continue;
    __m512 sum = zero;  // as in ForwardBlock
    for (int v = 0; v < NZ; ++v)
      sum = _mm512_fmadd_ps(_mm512_max_ps(acc[i][v], zero), _mm512_loadu_ps(a + 16 * v), sum);
    sum = _mm512_fmadd_ps(_mm512_max_ps(t, zero), _mm512_maskz_loadu_ps(tail16, a + 16 * NZ), sum);
    h[i] = SumLanes16(sum);
  }
}

template <int NZ, typename Tail>
void Forward(const float* const* rows, int R, int d, const float* wt, int ld, int width, float* z,
             const float* a, float* h, const float* packed, int chains) {
  const unsigned tail_mask = TailMask(width);
  int r = 0;
  if constexpr (std::is_same_v<Tail, HalfTail>) {
    if (chains == 4) {
      constexpr int RB = NZ >= 2 ? 7 : 8;  // q = 36: 21 accumulators, GCC spilled 24
      for (; r + RB <= R; r += RB)
        ForwardBlockChains<NZ, 4, RB>(rows + r, d, wt, ld, tail_mask, packed, z + r * ld, a,
                                      h ? h + r : nullptr);
      for (; r < R; ++r)
        ForwardBlockChains<NZ, 4, 1>(rows + r, d, wt, ld, tail_mask, packed, z + r * ld, a,
                                     h ? h + r : nullptr);
      return;
    }
  }
  for (; r + 8 <= R; r += 8)
    ForwardBlock<NZ, Tail, 8>(rows + r, d, wt, ld, tail_mask, z + r * ld, a, h ? h + r : nullptr);
  for (; r < R; ++r)
    ForwardBlock<NZ, Tail, 1>(rows + r, d, wt, ld, tail_mask, z + r * ld, a, h ? h + r : nullptr);
}

// Calls F<NZ, Tail> for the lane split of `width` neurons (1 to 48).
template <template <int, typename> class F, typename... Args>
void Dispatch(int width, Args... args) {
  PMOE_CHECK(width >= 1 && width <= kMaxWidth) << "width = " << width;
  const int full = width / 16, rest = width % 16;
  auto with_full = [&](auto tail) {
    using Tail = decltype(tail);
    switch (full) {
      case 0:
        F<0, Tail>::Run(args...);
        break;
      case 1:
        F<1, Tail>::Run(args...);
        break;
      case 2:
        F<2, Tail>::Run(args...);
        break;
      default:
        F<3, Tail>::Run(args...);
        break;
    }
  };
  if (rest == 0)
    with_full(NoTail{});
  else if (rest <= 8)
    with_full(HalfTail{});
  else
    with_full(FullTail{});
}

template <int NZ, typename Tail>
struct ForwardOp {
  static void Run(const float* const* rows, int R, int d, const float* wt, int ld, int width,
                  float* z, const float* a, float* h, const float* packed, int chains) {
    if constexpr (NZ + Tail::kVectors >= 1 && NZ + Tail::kVectors <= 3)
      Forward<NZ, Tail>(rows, R, d, wt, ld, width, z, a, h, packed, chains);
  }
};

// The weight gradient's block written transposed, dwt[j][k] at dwt + j * stride + k, without a
// scalar store per element (which cost a third of the kernel's time at q = 20, d = 64): four
// neurons' vectors are interleaved by two shuffle stages so that each 128-bit lane holds the
// four neurons of one column, stored whole; neurons 4-7 the same way at dwt + 4.
template <int QB>
inline void StoreFourNeurons(const __m512* a, float* dwt, int stride, int columns) {
  const __m512 zero = _mm512_setzero_ps();
  const __m512 a0 = a[0], a1 = QB > 1 ? a[1] : zero, a2 = QB > 2 ? a[2] : zero,
               a3 = QB > 3 ? a[3] : zero;
  const __m512 t0 = _mm512_unpacklo_ps(a0, a1), t1 = _mm512_unpackhi_ps(a0, a1);
  const __m512 t2 = _mm512_unpacklo_ps(a2, a3), t3 = _mm512_unpackhi_ps(a2, a3);
  // u[c], 128-bit lane m: the four neurons at column 4 m + c.
  const __m512 u[4] = {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xee),
                       _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xee)};
  const __mmask8 lanes = static_cast<__mmask8>((1u << (QB < 4 ? QB : 4)) - 1);
  auto store = [&](int column, __m128 v) {
    if (column >= columns) return;
    if constexpr (QB >= 4)
      _mm_storeu_ps(dwt + column * stride, v);
    else
      _mm_mask_storeu_ps(dwt + column * stride, lanes, v);
  };
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    store(c, _mm512_extractf32x4_ps(u[c], 0));
    store(4 + c, _mm512_extractf32x4_ps(u[c], 1));
    store(8 + c, _mm512_extractf32x4_ps(u[c], 2));
    store(12 + c, _mm512_extractf32x4_ps(u[c], 3));
  }
}

template <int QB, int NV>
inline void StoreTransposed(const __m512 (&acc)[QB][NV], float* dwt, int stride, int columns) {
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    const int left = columns - 16 * v;
    __m512 first[4], second[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      first[k] = k < QB ? acc[k][v] : _mm512_setzero_ps();
      second[k] = k + 4 < QB ? acc[k + 4][v] : _mm512_setzero_ps();
    }
    StoreFourNeurons<(QB < 4 ? QB : 4)>(first, dwt + 16 * v * stride, stride, left);
    if constexpr (QB > 4) StoreFourNeurons<QB - 4>(second, dwt + 16 * v * stride + 4, stride, left);
  }
}

// Weight gradient. GCC keeps these accumulator arrays in registers only when every loop over them
// is unrolled before its scalar replacement runs; without the pragmas it stores them on each row.
template <int QB, int NV>
void NeuronBlock(const float* const* rows, int R, int j0, __mmask16 last, const float* g, int q,
                 int k0, const GradientOut& out) {
  __m512 acc[QB][NV];
#pragma GCC unroll 16
  for (int k = 0; k < QB; ++k)
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[k][v] = _mm512_setzero_ps();
  for (int r = 0; r < R; ++r) {
    const float* x = rows[r] + j0;
    __m512 xv[NV];
#pragma GCC unroll 16
    for (int v = 0; v < NV - 1; ++v) xv[v] = _mm512_loadu_ps(x + 16 * v);
    xv[NV - 1] = _mm512_maskz_loadu_ps(last, x + 16 * (NV - 1));
    const float* grow = g + r * q + k0;
#pragma GCC unroll 16
    for (int k = 0; k < QB; ++k) {
      const __m512 gb = _mm512_set1_ps(grow[k]);
#pragma GCC unroll 16
      for (int v = 0; v < NV; ++v) acc[k][v] = _mm512_fmadd_ps(gb, xv[v], acc[k][v]);
    }
  }
  if (out.j_stride != 1) {  // transposed on the way out: no separate pass over the gradient
    const int columns = 16 * (NV - 1) + __builtin_popcount(last);
    StoreTransposed<QB, NV>(acc, out.dw + k0 + j0 * out.j_stride, out.j_stride, columns);
    return;
  }
#pragma GCC unroll 16
  for (int k = 0; k < QB; ++k) {
    float* dst = out.dw + (k0 + k) * out.k_stride + j0;
#pragma GCC unroll 16
    for (int v = 0; v < NV - 1; ++v) _mm512_storeu_ps(dst + 16 * v, acc[k][v]);
    _mm512_mask_storeu_ps(dst + 16 * (NV - 1), last, acc[k][NV - 1]);
  }
}

// Every neuron group on columns [j0, j0 + 16 NV), the last vector masked by `last`: the rows'
// segments stay in L1 from one group to the next.
template <int NV>
void NeuronGroups(const float* const* rows, int R, int j0, __mmask16 last, const float* g, int q,
                  const GradientOut& out) {
  // Groups of at most 6 neurons (24 accumulators), as even as possible: q = 20 is 5+5+5+5,
  // not 6+6+6+2, whose last group would do 8 FMAs per 4 loads.
  const int groups = (q + 5) / 6, small = q / groups, large = q % groups;
  for (int group = 0, k0 = 0; group < groups; ++group) {
    const int size = small + (group < large);
    switch (size) {
      case 1:
        NeuronBlock<1, NV>(rows, R, j0, last, g, q, k0, out);
        break;
      case 2:
        NeuronBlock<2, NV>(rows, R, j0, last, g, q, k0, out);
        break;
      case 3:
        NeuronBlock<3, NV>(rows, R, j0, last, g, q, k0, out);
        break;
      case 4:
        NeuronBlock<4, NV>(rows, R, j0, last, g, q, k0, out);
        break;
      case 5:
        NeuronBlock<5, NV>(rows, R, j0, last, g, q, k0, out);
        break;
      default:
        NeuronBlock<6, NV>(rows, R, j0, last, g, q, k0, out);
        break;
    }
    k0 += size;
  }
}

void WeightGradient(const float* const* rows, int R, int d, const float* g, int q,
                    const GradientOut& out) {
  int j = 0;
  for (; j + 64 <= d; j += 64) NeuronGroups<4>(rows, R, j, 0xffff, g, q, out);
  const int rest = d - j;
  if (rest == 0) return;
  const __mmask16 last = static_cast<__mmask16>((1u << (rest - 16 * ((rest - 1) / 16))) - 1);
  switch ((rest + 15) / 16) {
    case 1:
      NeuronGroups<1>(rows, R, j, last, g, q, out);
      break;
    case 2:
      NeuronGroups<2>(rows, R, j, last, g, q, out);
      break;
    case 3:
      NeuronGroups<3>(rows, R, j, last, g, q, out);
      break;
    default:
      NeuronGroups<4>(rows, R, j, last, g, q, out);
      break;
  }
}

// With a and h (q <= 48 only), also h = ReluOutputs(z, a) in the same pass.
void Avx512RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z,
                       const float* a = nullptr, float* h = nullptr) {
  PMOE_CHECK(h == nullptr || q <= kMaxWidth) << "fused outputs for q = " << q;
  // The tail's G chains (q <= 48: one pass), its weights packed in their lane order.
  const int chains = portable::TailChains(q);
  const float* packed = nullptr;
  if (chains > 1) {
    thread_local std::vector<float> packed_storage;
    packed_storage.resize(static_cast<size_t>(16) * ((d + chains - 1) / chains));
    portable::PackTailWeights(wt, d, q, chains, packed_storage.data());
    packed = packed_storage.data();
  }
  // Up to 48 neurons (24 accumulators over 8 rows) per pass over the rows.
  for (int k0 = 0; k0 < q; k0 += kMaxWidth) {
    const int width = std::min(kMaxWidth, q - k0);
    Dispatch<ForwardOp>(width, rows, R, d, wt + k0, q, width, z + k0, a, h, packed, chains);
  }
}

void Avx512ReluOutputs(const float* z, int R, int q, const float* a, float* h) {
  for (int r = 0; r < R; ++r) {
    __m512 acc = _mm512_setzero_ps();
    for (int k = 0; k < q; k += 16) {
      const __mmask16 m = q - k >= 16 ? 0xffff : static_cast<__mmask16>((1u << (q - k)) - 1);
      const __m512 relu =
          _mm512_max_ps(_mm512_maskz_loadu_ps(m, z + r * q + k), _mm512_setzero_ps());
      acc = _mm512_fmadd_ps(relu, _mm512_maskz_loadu_ps(m, a + k), acc);
    }
    h[r] = SumLanes16(acc);
  }
}

void Avx512ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                             const float* const* coef, const float* extra, float* g) {
  const int cols = q + (extra ? 1 : 0);
  if (q <= 16) {  // a row of g fits one vector: the output weights stay in registers
    const __mmask16 m = static_cast<__mmask16>((1u << q) - 1);
    __m512 av[kMaxClassOutputs];
    for (int o = 0; o < outputs; ++o) av[o] = _mm512_maskz_loadu_ps(m, a[o]);
    const int unmasked_rows = R - 15 / cols;  // as in ReluGradient: whole-vector stores
    for (int r = 0; r < R; ++r) {
      const __mmask16 active = _mm512_mask_cmp_ps_mask(m, _mm512_maskz_loadu_ps(m, z + r * q),
                                                       _mm512_setzero_ps(), _CMP_GT_OQ);
      __m512 sum = _mm512_mul_ps(_mm512_set1_ps(coef[0][r]), av[0]);
      for (int o = 1; o < outputs; ++o)
        sum = _mm512_fmadd_ps(_mm512_set1_ps(coef[o][r]), av[o], sum);
      __m512 row = _mm512_maskz_mov_ps(active, sum);
      if (extra)
        row = _mm512_mask_mov_ps(row, static_cast<__mmask16>(1u << q), _mm512_set1_ps(extra[r]));
      if (r < unmasked_rows)
        _mm512_storeu_ps(g + r * cols, row);
      else
        _mm512_mask_storeu_ps(g + r * cols, static_cast<__mmask16>((1u << cols) - 1), row);
    }
    return;
  }
  for (int r = 0; r < R; ++r) {
    for (int k = 0; k < q; k += 16) {
      const __mmask16 m = q - k >= 16 ? 0xffff : static_cast<__mmask16>((1u << (q - k)) - 1);
      const __mmask16 active = _mm512_mask_cmp_ps_mask(m, _mm512_maskz_loadu_ps(m, z + r * q + k),
                                                       _mm512_setzero_ps(), _CMP_GT_OQ);
      __m512 sum = _mm512_mul_ps(_mm512_set1_ps(coef[0][r]), _mm512_maskz_loadu_ps(m, a[0] + k));
      for (int o = 1; o < outputs; ++o)
        sum = _mm512_fmadd_ps(_mm512_set1_ps(coef[o][r]), _mm512_maskz_loadu_ps(m, a[o] + k), sum);
      _mm512_mask_storeu_ps(g + r * cols + k, m, _mm512_maskz_mov_ps(active, sum));
    }
    if (extra) g[r * cols + q] = extra[r];
  }
}

void Avx512ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                        const float* extra, float* g) {
  const int cols = q + (extra ? 1 : 0);
  if (cols <= 16) {  // a row of g fits one vector
    // Whole-vector stores, each spilling past its row into the next, which the next row's store
    // then overwrites: masked stores cost several times more on some cores (Zen 4). Only the
    // rows whose vector would run past the end of g are stored masked.
    const __mmask16 m = static_cast<__mmask16>((1u << q) - 1);
    const __m512 av = _mm512_maskz_loadu_ps(m, a);
    const int unmasked_rows = R - 15 / cols;  // those with r * cols + 16 <= R * cols
    for (int r = 0; r < R; ++r) {
      const __mmask16 active = _mm512_mask_cmp_ps_mask(m, _mm512_maskz_loadu_ps(m, z + r * q),
                                                       _mm512_setzero_ps(), _CMP_GT_OQ);
      // Inactive neurons get +0, as from the select c * a[k] or 0.
      __m512 row = _mm512_maskz_mul_ps(active, _mm512_set1_ps(coef[r]), av);
      if (extra)
        row = _mm512_mask_mov_ps(row, static_cast<__mmask16>(1u << q), _mm512_set1_ps(extra[r]));
      if (r < unmasked_rows)
        _mm512_storeu_ps(g + r * cols, row);
      else
        _mm512_mask_storeu_ps(g + r * cols, static_cast<__mmask16>((1u << cols) - 1), row);
    }
    return;
  }
  for (int r = 0; r < R; ++r) {
    const __m512 c = _mm512_set1_ps(coef[r]);
    for (int k = 0; k < q; k += 16) {
      const __mmask16 m = q - k >= 16 ? 0xffff : static_cast<__mmask16>((1u << (q - k)) - 1);
      const __mmask16 active = _mm512_mask_cmp_ps_mask(m, _mm512_maskz_loadu_ps(m, z + r * q + k),
                                                       _mm512_setzero_ps(), _CMP_GT_OQ);
      // Inactive neurons get +0, as from the select c * a[k] or 0.
      _mm512_mask_storeu_ps(g + r * cols + k, m,
                            _mm512_maskz_mul_ps(active, c, _mm512_maskz_loadu_ps(m, a + k)));
    }
    if (extra) g[r * cols + q] = extra[r];
  }
}

#pragma GCC pop_options

bool UseAvx512() { return ActiveKernelPath() == KernelPath::kAvx512; }
bool UseAvx2() { return ActiveKernelPath() == KernelPath::kAvx2; }

// wt (d, q) transposed to (q, d) for the dot-product forward, in a thread's buffer, 64-byte
// aligned: the kernel's loads of w then never straddle two cache lines.
const float* DotWeights(const float* wt, int d, int q) {
  thread_local std::vector<float> w_storage;
  w_storage.resize(static_cast<size_t>(q) * d + 15);
  const uintptr_t address = reinterpret_cast<uintptr_t>(w_storage.data());
  float* w = w_storage.data() + (64 - address % 64) % 64 / sizeof(float);
  for (int k = 0; k < q; ++k)
    for (int j = 0; j < d; ++j) w[k * d + j] = wt[j * q + k];
  return w;
}

}  // namespace

bool RowKernelsAvailable() { return true; }

void GTransposedTimesRows(const float* const* rows, int R, int d, const float* g, int q,
                          float* dw) {
  if (UseAvx512())
    WeightGradient(rows, R, d, g, q, {dw, d, 1});
  else if (UseAvx2())
    avx2::WeightGradient(rows, R, d, g, q, dw, d, 1);
  else
    portable::WeightGradient(rows, R, d, g, q, dw, d, 1);
}

void RowsTransposedTimesG(const float* const* rows, int R, int d, const float* g, int q,
                          float* dwt) {
  if (UseAvx512())
    WeightGradient(rows, R, d, g, q, {dwt, 1, q});
  else if (UseAvx2())
    avx2::WeightGradient(rows, R, d, g, q, dwt, 1, q);
  else
    portable::WeightGradient(rows, R, d, g, q, dwt, 1, q);
}

void RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  if (DotForwardFaster(q)) {  // few neurons: the weights transposed once, then dot products
    RowsTimesW(rows, R, d, DotWeights(wt, d, q), q, z);
    return;
  }
  // The row-lanes forward computes one chain per output: never where the tail has G chains.
  if (UseAvx512() && RowLanesForwardFaster(q) && portable::TailChains(q) == 1)
    RowLanesForward(rows, R, d, wt, q, z);
  else if (UseAvx512())
    Avx512RowsTimesWt(rows, R, d, wt, q, z);
  else if (UseAvx2())
    avx2::RowsTimesWtBroadcast(rows, R, d, wt, q, z);
  else
    portable::RowsTimesWtBroadcast(rows, R, d, wt, q, z);
}

void RowsTimesWtReluOutputs(const float* const* rows, int R, int d, const float* wt, int q,
                            const float* a, float* z, float* h) {
  if (DotForwardFaster(q)) {  // h in the dot products' pass (q <= 8 on AVX-512)
    RowsTimesW(rows, R, d, DotWeights(wt, d, q), q, z, a, h);
    return;
  }
  if (UseAvx512() && RowLanesForwardFaster(q) && portable::TailChains(q) == 1) {
    RowLanesForward(rows, R, d, wt, q, z, a, h);
    return;
  }
  if (UseAvx512() && q <= kMaxWidth) {  // h from the accumulators, in the same pass
    Avx512RowsTimesWt(rows, R, d, wt, q, z, a, h);
    return;
  }
  RowsTimesWt(rows, R, d, wt, q, z);
  ReluOutputs(z, R, q, a, h);
}

void ReluOutputs(const float* z, int R, int q, const float* a, float* h) {
  if (UseAvx512())
    Avx512ReluOutputs(z, R, q, a, h);
  else if (UseAvx2())
    avx2::ReluOutputs(z, R, q, a, h);
  else
    portable::ReluOutputs(z, R, q, a, h);
}

void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g) {
  if (UseAvx512())
    Avx512ReluGradient(z, R, q, a, coef, extra, g);
  else if (UseAvx2())
    avx2::ReluGradient(z, R, q, a, coef, extra, g);
  else
    portable::ReluGradient(z, R, q, a, coef, extra, g);
}

void ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                       const float* const* coef, const float* extra, float* g) {
  PMOE_CHECK(outputs >= 1 && outputs <= kMaxClassOutputs) << "outputs = " << outputs;
  if (UseAvx512())
    Avx512ClassReluGradient(z, R, q, outputs, a, coef, extra, g);
  else
    portable::ClassReluGradient(z, R, q, outputs, a, coef, extra, g);
}

}  // namespace pmoe
