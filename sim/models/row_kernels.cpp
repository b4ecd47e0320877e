// AVX-512 micro-kernels for the experts' products (see row_kernels.hpp). A row of q neurons is
// held as NZ full 16-lane vectors plus a tail: none, an 8-lane (ymm) vector when 1-8 neurons
// remain, a masked 16-lane vector when 9-15 remain. The 8-lane tail matters on cores that split
// 512-bit operations into two 256-bit halves (AMD Zen 4): q = 20 costs 3 half-slots instead of 4,
// q = 40 costs 5 instead of 6. Each output element is the same chain of FMAs over j whatever the
// vector holding it, so results do not depend on this layout.
// Register blocking: 8 rows at a time in the forward pass, up to 24 accumulators backward.
#include "pmoe/models/row_kernels.hpp"

#include "pmoe/core/errors.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pmoe {

#if defined(__AVX512F__)

namespace {

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
  static V Load(__mmask8 m, const float* p) { return _mm256_maskz_loadu_ps(m, p); }
  static void Store(__mmask8 m, float* p, V v) { _mm256_mask_storeu_ps(p, m, v); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
};
struct FullTail {  // 9-15 lanes in a masked 512-bit vector
  static constexpr int kVectors = 1;
  using V = __m512;
  static V Zero() { return _mm512_setzero_ps(); }
  static V Set1(float x) { return _mm512_set1_ps(x); }
  static V Load(__mmask16 m, const float* p) { return _mm512_maskz_loadu_ps(m, p); }
  static void Store(__mmask16 m, float* p, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
};

// The lanes of the tail vector used by a q-wide row.
unsigned TailMask(int q) { return (1u << (q % 16)) - 1; }

// RB rows at a time (RB <= 8) against NZ full vectors and the tail.
template <int NZ, typename Tail, int RB>
void ForwardBlock(const float* const* rows, int d, const float* wt, int q, unsigned tail_mask,
                  float* z) {
  using TV = typename Tail::V;
  __m512 acc[RB][NZ > 0 ? NZ : 1];
  TV tacc[RB];
  for (int i = 0; i < RB; ++i) {
    for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_setzero_ps();
    if constexpr (Tail::kVectors) tacc[i] = Tail::Zero();
  }
  for (int j = 0; j < d; ++j) {
    const float* wrow = wt + j * q;
    __m512 w[NZ > 0 ? NZ : 1];
    for (int v = 0; v < NZ; ++v) w[v] = _mm512_loadu_ps(wrow + 16 * v);
    TV tw;
    if constexpr (Tail::kVectors) tw = Tail::Load(tail_mask, wrow + 16 * NZ);
    for (int i = 0; i < RB; ++i) {
      const float x = rows[i][j];
      const __m512 xb = _mm512_set1_ps(x);
      for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_fmadd_ps(xb, w[v], acc[i][v]);
      if constexpr (Tail::kVectors) tacc[i] = Tail::Fma(Tail::Set1(x), tw, tacc[i]);
    }
  }
  for (int i = 0; i < RB; ++i) {
    for (int v = 0; v < NZ; ++v) _mm512_storeu_ps(z + i * q + 16 * v, acc[i][v]);
    if constexpr (Tail::kVectors) Tail::Store(tail_mask, z + i * q + 16 * NZ, tacc[i]);
  }
}

template <int NZ, typename Tail>
void Forward(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  const unsigned tail_mask = TailMask(q);
  int r = 0;
  for (; r + 8 <= R; r += 8) ForwardBlock<NZ, Tail, 8>(rows + r, d, wt, q, tail_mask, z + r * q);
  for (; r < R; ++r) ForwardBlock<NZ, Tail, 1>(rows + r, d, wt, q, tail_mask, z + r * q);
}

constexpr int kPrefetchAhead = 64;  // floats: the row's line five 12-column blocks ahead

// JB columns j of every row at a time against NZ full vectors and the tail.
template <int NZ, typename Tail, int JB>
void BackwardBlock(const float* const* rows, int R, int j0, const float* g, int q,
                   unsigned tail_mask, float* dwt) {
  using TV = typename Tail::V;
  __m512 acc[JB][NZ > 0 ? NZ : 1];
  TV tacc[JB];
  for (int i = 0; i < JB; ++i) {
    for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_setzero_ps();
    if constexpr (Tail::kVectors) tacc[i] = Tail::Zero();
  }
  for (int r = 0; r < R; ++r) {
    const float* grow = g + r * q;
    __m512 gv[NZ > 0 ? NZ : 1];
    for (int v = 0; v < NZ; ++v) gv[v] = _mm512_loadu_ps(grow + 16 * v);
    TV tg;
    if constexpr (Tail::kVectors) tg = Tail::Load(tail_mask, grow + 16 * NZ);
    const float* x = rows[r] + j0;
    // The rows stay in L2 between blocks but their next lines are not prefetched by the
    // hardware (80-odd interleaved streams): fetch what a later block will read.
    _mm_prefetch(reinterpret_cast<const char*>(x + kPrefetchAhead), _MM_HINT_T0);
    for (int i = 0; i < JB; ++i) {
      const __m512 xb = _mm512_set1_ps(x[i]);
      for (int v = 0; v < NZ; ++v) acc[i][v] = _mm512_fmadd_ps(xb, gv[v], acc[i][v]);
      if constexpr (Tail::kVectors) tacc[i] = Tail::Fma(Tail::Set1(x[i]), tg, tacc[i]);
    }
  }
  for (int i = 0; i < JB; ++i) {
    float* out = dwt + (j0 + i) * q;
    for (int v = 0; v < NZ; ++v) _mm512_storeu_ps(out + 16 * v, acc[i][v]);
    if constexpr (Tail::kVectors) Tail::Store(tail_mask, out + 16 * NZ, tacc[i]);
  }
}

template <int NZ, typename Tail>
void Backward(const float* const* rows, int R, int d, const float* g, int q, float* dwt) {
  constexpr int kVectors = NZ + Tail::kVectors;
  constexpr int kJB = 24 / kVectors;  // accumulators fill 24 of the 32 vector registers
  const unsigned tail_mask = TailMask(q);
  int j = 0;
  for (; j + kJB <= d; j += kJB) BackwardBlock<NZ, Tail, kJB>(rows, R, j, g, q, tail_mask, dwt);
  for (; j < d; ++j) BackwardBlock<NZ, Tail, 1>(rows, R, j, g, q, tail_mask, dwt);
}

// Calls F<NZ, Tail> for q's lane split (q <= 48).
template <template <int, typename> class F, typename... Args>
void Dispatch(int q, Args... args) {
  PMOE_CHECK(q >= 1 && q <= 48) << "q = " << q;
  const int full = q / 16, rest = q % 16;
  auto with_full = [&](auto tail) {
    using Tail = decltype(tail);
    switch (full) {
      case 0: F<0, Tail>::Run(args...); break;
      case 1: F<1, Tail>::Run(args...); break;
      case 2: F<2, Tail>::Run(args...); break;
      default: F<3, Tail>::Run(args...); break;
    }
  };
  if (rest == 0) with_full(NoTail{});
  else if (rest <= 8) with_full(HalfTail{});
  else with_full(FullTail{});
}

template <int NZ, typename Tail>
struct ForwardOp {
  static void Run(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
    if constexpr (NZ + Tail::kVectors >= 1 && NZ + Tail::kVectors <= 3) Forward<NZ, Tail>(rows, R, d, wt, q, z);
  }
};
template <int NZ, typename Tail>
struct BackwardOp {
  static void Run(const float* const* rows, int R, int d, const float* g, int q, float* dwt) {
    if constexpr (NZ + Tail::kVectors >= 1 && NZ + Tail::kVectors <= 3) Backward<NZ, Tail>(rows, R, d, g, q, dwt);
  }
};

}  // namespace

bool RowKernelsAvailable() { return true; }

void RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  Dispatch<ForwardOp>(q, rows, R, d, wt, q, z);
}

void RowsTransposedTimesG(const float* const* rows, int R, int d, const float* g, int q,
                          float* dwt) {
  Dispatch<BackwardOp>(q, rows, R, d, g, q, dwt);
}

#else  // no AVX-512: the models use Eigen instead

bool RowKernelsAvailable() { return false; }

void RowsTimesWt(const float* const*, int, int, const float*, int, float*) {
  PMOE_CHECK(false) << "built without AVX-512";
}

void RowsTransposedTimesG(const float* const*, int, int, const float*, int, float*) {
  PMOE_CHECK(false) << "built without AVX-512";
}

#endif

}  // namespace pmoe
