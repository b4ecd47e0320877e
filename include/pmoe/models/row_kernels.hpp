// The experts' two products on rows given by pointers, so a mini-batch is never copied: the
// forward z = X W^T with W stored transposed (d, q), broadcast-and-FMA over contiguous q-wide
// rows, and the weight gradient dW = G^T X, broadcast-and-FMA over contiguous patch rows.
// AVX-512 where the CPU has it, else portable twins that compute the same bits (chosen at run
// time: kernel_path.hpp).
#pragma once

namespace pmoe {

// Whether the kernels below are compiled in: always, since their portable twins run where
// AVX-512 does not.
bool RowKernelsAvailable();

// The most outputs ClassReluGradient takes (its output weights stay in registers).
constexpr int kMaxClassOutputs = 16;

// z[r][k] = sum_j rows[r][j] wt[j][k] for r < R, k < q; z is (R, q) row-major,
// wt is (d, q) row-major. For the few neuron counts where that is faster (DotForwardFaster),
// as dot products along j on the weights transposed (dot_forward.hpp).
void RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z);

// h[r] = sum_k a[k] max(z[r][k], 0) for r < R; z is (R, q) row-major.
void ReluOutputs(const float* z, int R, int q, const float* a, float* h);

// RowsTimesWt then ReluOutputs, in one pass over the rows where the row-lanes forward runs
// and where the dot-product forward runs with q <= 8 (AVX-512): the same bits either way.
void RowsTimesWtReluOutputs(const float* const* rows, int R, int d, const float* wt, int q,
                            const float* a, float* z, float* h);

// g[r][k] = z[r][k] > 0 ? coef[r] a[k] : 0 for k < q, and g[r][q] = extra[r] when extra is not
// null; g is (R, q + 1 if extra) row-major.
void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g);

// The same for c <= kMaxClassOutputs outputs (MODEL.md §7): g[r, k] = 1[z[r, k] > 0] *
// sum_o coef[o][r] a[o][k] for k < q, and g[r, q] = extra[r] when extra is given.
void ClassReluGradient(const float* z, int R, int q, int outputs, const float* const* a,
                       const float* const* coef, const float* extra, float* g);

// dw[k][j] = sum_r g[r][k] rows[r][j] for k < q, j < d: the weight gradient, (q, d) row-major,
// overwritten; g is (R, q) row-major. Any q: vectorized over j.
void GTransposedTimesRows(const float* const* rows, int R, int d, const float* g, int q, float* dw);

// The same gradient transposed: dwt[j][k], (d, q) row-major like the weights it updates.
void RowsTransposedTimesG(const float* const* rows, int R, int d, const float* g, int q,
                          float* dwt);

}  // namespace pmoe
