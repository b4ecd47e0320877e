// The experts' two products on rows given by pointers, so a mini-batch is never copied: the
// forward z = X W^T and the weight gradient dW^T = X^T G, with W stored transposed (d, q) so
// that both run as broadcast-and-FMA over contiguous q-wide rows. AVX-512 when the build has it;
// RowKernelsAvailable() says so, and the models fall back to Eigen otherwise.
#pragma once

namespace pmoe {

// Whether the AVX-512 kernels below are compiled in.
bool RowKernelsAvailable();

// z[r][k] = sum_j rows[r][j] wt[j][k] for r < R, k < q (q <= 48); z is (R, q) row-major,
// wt is (d, q) row-major.
void RowsTimesWt(const float* const* rows, int R, int d, const float* wt, int q, float* z);

// dwt[j][k] = sum_r rows[r][j] g[r][k] for j < d, k < q (q <= 48); g is (R, q) row-major,
// dwt (d, q) row-major, overwritten.
void RowsTransposedTimesG(const float* const* rows, int R, int d, const float* g, int q,
                          float* dwt);

}  // namespace pmoe
