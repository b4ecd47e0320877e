// Forward and backward of k independent experts on their row blocks (CNN and separate pMoE).
// (The definitions are in experts_model_impl.hpp.)
#include "experts_model_impl.hpp"

namespace pmoe {

template class ExpertsModel<float>;

}  // namespace pmoe
