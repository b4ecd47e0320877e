// The AVX2 twins of the AVX-512 kernels, for CPUs with AVX2 and FMA but not AVX-512: 8-lane
// vectors, the same chain of FMAs per output and the same tree of sums (sum_lanes8.inc), so the
// same bits as row_kernels.cpp and dot_forward.cpp. Signatures as in row_kernels_portable.hpp.
#pragma once

namespace pmoe::avx2 {

void RowsTimesWtBroadcast(const float* const* rows, int R, int d, const float* wt, int q, float* z);
void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z);
void WeightGradient(const float* const* rows, int R, int d, const float* g, int q, float* dw,
                    int k_stride, int j_stride);
void ReluOutputs(const float* z, int R, int q, const float* a, float* h);
void ReluGradient(const float* z, int R, int q, const float* a, const float* coef,
                  const float* extra, float* g);

}  // namespace pmoe::avx2
