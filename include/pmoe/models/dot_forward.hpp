// The experts' forward product as dot products along the patch dimension, for the neuron counts
// where that fills more vector lanes than broadcasting x against weight rows (see
// row_kernels.hpp): a few neurons per expert, as in a joint pMoE with many experts.
#pragma once

namespace pmoe {

// Whether RowsTimesW is the faster forward for q neurons (and is compiled in: AVX-512).
bool DotForwardFaster(int q);

// z[r][k] = sum_j rows[r][j] w[k][j] for r < R, k < q; w is (q, d) row-major, z (R, q).
// Only for q with DotForwardFaster(q). With h (R) not null, also h = ReluOutputs(z, a) for the
// output weights a (q), the same bits, fused into the pass where the kernel allows (q <= 8).
void RowsTimesW(const float* const* rows, int R, int d, const float* w, int q, float* z,
                const float* a = nullptr, float* h = nullptr);

}  // namespace pmoe
