// The two-output convolution of MODEL.md §8, direct loops over blocks of kLanes filters: a
// block's accumulators fit in one AVX-512 register (float) and the filters (d, kLanes) stay in
// L1, so the products need neither a copy of the routed samples nor a packed matrix. A J that is
// not a multiple of kLanes ends with blocks of one filter.
// (The definitions are in conv_expert_impl.hpp.)
#include "conv_expert_impl.hpp"

namespace pmoe {

template void ConvForward(const RowMat<float>&, int, const int*, int, const float*, const float*,
                          int, Activation, float*, float*);
template void ConvBackward(const RowMat<float>&, int, const int*, int, const float*, const float*,
                           int, Activation, float*, float*);
template void ConvForwardBackward(const RowMat<float>&, int, const int*, int, const float*,
                                  const float*, int, Activation, float*, ConvSlope<float>&, float*,
                                  float*, std::vector<float>&, bool);
template void ConvForwardBackward4(const ConvBatch<float>&, int, int, Activation, ConvSlope<float>&,
                                   int, float*);
template RowMat<float> InterleavePatches(const RowMat<float>&, int);

}  // namespace pmoe
