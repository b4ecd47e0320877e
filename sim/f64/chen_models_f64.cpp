// Chen et al.'s models in double precision, for the finite-difference tests only (see
// models_f64.cpp).
#include "models/single_conv_impl.hpp"
#include "models/switch_moe_impl.hpp"

namespace pmoe {

template class SingleConv<double>;
template SwitchInput<double> MakeSwitchInput(const RowMat<double>&, int, bool);
template class SwitchMoe<double>;

}  // namespace pmoe
