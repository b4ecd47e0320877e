// The forward product with rows in the vector lanes (row_lanes_forward.cpp): AVX-512 only, the
// same bits as the broadcast kernel it replaces where it is faster.
#pragma once

namespace pmoe {

// Whether RowLanesForward handles q neurons, and whether it is the faster of the two for them.
bool RowLanesForwardTakes(int q);
bool RowLanesForwardFaster(int q);

// z[r][k] = sum_j rows[r][j] wt[j][k] (R, q) for wt (d, q) row-major, summed in the broadcast
// kernel's order; with output weights a, also h[r] = sum_k a[k] max(z[r][k], 0) (R) with
// ReluOutputs's bits. z or h may be null (not both). Call only on CPUs with AVX-512 and when
// RowLanesForwardTakes(q).
void RowLanesForward(const float* const* rows, int R, int d, const float* wt, int q, float* z,
                     const float* a = nullptr, float* h = nullptr);

}  // namespace pmoe
