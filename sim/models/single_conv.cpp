// The single convolution baseline (MODEL.md §8): the conv expert on every sample, no gate.
// (The definitions are in single_conv_impl.hpp.)
#include "single_conv_impl.hpp"

namespace pmoe {

template class SingleConv<float>;

}  // namespace pmoe
