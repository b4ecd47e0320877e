// AVX-512 micro-kernels for the experts' products (see row_kernels.hpp). Register blocking:
// 8 rows x up to 3 vectors of 16 neurons in the forward pass, up to 24 accumulators in the
// backward pass; the last vector of a row is masked when q is not a multiple of 16.
#include "pmoe/models/row_kernels.hpp"

#include "pmoe/core/errors.hpp"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace pmoe {

#if defined(__AVX512F__)

namespace {

__mmask16 TailMask(int q) {
  const int rest = q - 16 * ((q - 1) / 16);
  return static_cast<__mmask16>((1u << rest) - 1);
}

// RB rows at a time (RB <= 8) against NV vectors of neurons.
template <int NV, int RB>
void ForwardBlock(const float* const* rows, int d, const float* wt, int q, __mmask16 tail,
                  float* z) {
  __m512 acc[RB][NV];
  for (int i = 0; i < RB; ++i)
    for (int v = 0; v < NV; ++v) acc[i][v] = _mm512_setzero_ps();
  for (int j = 0; j < d; ++j) {
    __m512 w[NV];
    for (int v = 0; v < NV; ++v)
      w[v] = v == NV - 1 ? _mm512_maskz_loadu_ps(tail, wt + j * q + 16 * v)
                         : _mm512_loadu_ps(wt + j * q + 16 * v);
    for (int i = 0; i < RB; ++i) {
      const __m512 x = _mm512_set1_ps(rows[i][j]);
      for (int v = 0; v < NV; ++v) acc[i][v] = _mm512_fmadd_ps(x, w[v], acc[i][v]);
    }
  }
  for (int i = 0; i < RB; ++i)
    for (int v = 0; v < NV; ++v) {
      if (v == NV - 1) _mm512_mask_storeu_ps(z + i * q + 16 * v, tail, acc[i][v]);
      else _mm512_storeu_ps(z + i * q + 16 * v, acc[i][v]);
    }
}

template <int NV>
void Forward(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  const __mmask16 tail = TailMask(q);
  int r = 0;
  for (; r + 8 <= R; r += 8) ForwardBlock<NV, 8>(rows + r, d, wt, q, tail, z + r * q);
  for (; r < R; ++r) ForwardBlock<NV, 1>(rows + r, d, wt, q, tail, z + r * q);
}

// JB columns j of every row at a time against NV vectors of neurons.
template <int NV, int JB>
void BackwardBlock(const float* const* rows, int R, int j0, const float* g, int q,
                   __mmask16 tail, float* dwt) {
  __m512 acc[JB][NV];
  for (int i = 0; i < JB; ++i)
    for (int v = 0; v < NV; ++v) acc[i][v] = _mm512_setzero_ps();
  for (int r = 0; r < R; ++r) {
    __m512 gv[NV];
    for (int v = 0; v < NV; ++v)
      gv[v] = v == NV - 1 ? _mm512_maskz_loadu_ps(tail, g + r * q + 16 * v)
                          : _mm512_loadu_ps(g + r * q + 16 * v);
    const float* x = rows[r] + j0;
    for (int i = 0; i < JB; ++i) {
      const __m512 xb = _mm512_set1_ps(x[i]);
      for (int v = 0; v < NV; ++v) acc[i][v] = _mm512_fmadd_ps(xb, gv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < JB; ++i)
    for (int v = 0; v < NV; ++v) {
      float* out = dwt + (j0 + i) * q + 16 * v;
      if (v == NV - 1) _mm512_mask_storeu_ps(out, tail, acc[i][v]);
      else _mm512_storeu_ps(out, acc[i][v]);
    }
}

template <int NV>
void Backward(const float* const* rows, int R, int d, const float* g, int q, float* dwt) {
  constexpr int kJB = 24 / NV;  // accumulators fill 24 of the 32 vector registers
  const __mmask16 tail = TailMask(q);
  int j = 0;
  for (; j + kJB <= d; j += kJB) BackwardBlock<NV, kJB>(rows, R, j, g, q, tail, dwt);
  for (; j < d; ++j) BackwardBlock<NV, 1>(rows, R, j, g, q, tail, dwt);
}

}  // namespace

bool RowKernelsAvailable() { return true; }

void RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z) {
  PMOE_CHECK(q >= 1 && q <= 48) << "q = " << q;
  if (q <= 16) Forward<1>(rows, R, d, wt, q, z);
  else if (q <= 32) Forward<2>(rows, R, d, wt, q, z);
  else Forward<3>(rows, R, d, wt, q, z);
}

void RowsTransposedTimesG(const float* const* rows, int R, int d, const float* g, int q,
                          float* dwt) {
  PMOE_CHECK(q >= 1 && q <= 48) << "q = " << q;
  if (q <= 16) Backward<1>(rows, R, d, g, q, dwt);
  else if (q <= 32) Backward<2>(rows, R, d, g, q, dwt);
  else Backward<3>(rows, R, d, g, q, dwt);
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
