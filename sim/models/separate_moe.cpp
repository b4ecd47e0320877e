// Routing of the separately trained pMoE: top-l patches per expert under frozen router kernels.
// (The definitions are in separate_moe_impl.hpp.)
#include "separate_moe_impl.hpp"

namespace pmoe {

template class SeparateMoe<float>;

}  // namespace pmoe
