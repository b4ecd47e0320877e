// The published switch MoE's two-class loss (DoubleSoftmaxTwoLanes) for four samples at once,
// on the active kernel path: 256-bit vectors on the AVX-512 and AVX2 paths, one sample at a time
// on the portable one; the same bits on all three (tests/train/exp_log1p_test.cpp).
#pragma once

namespace pmoe {

// value[k] = L and g[k] = dL/df_label of sample k = 0..3 with f_label = mine[k], the other
// class's f = other[k].
void DoubleSoftmaxTwo4(const double* mine, const double* other, double* value, double* g);

// The two paths themselves, for the tests.
void DoubleSoftmaxTwo4Portable(const double* mine, const double* other, double* value, double* g);
void DoubleSoftmaxTwo4Avx2(const double* mine, const double* other, double* value, double* g);

}  // namespace pmoe
