// Forward and backward of the jointly trained pMoE, gradient through the softmax gates included.
// (The definitions are in joint_moe_impl.hpp.)
#include "joint_moe_impl.hpp"

namespace pmoe {

template class JointMoe<float>;

}  // namespace pmoe
