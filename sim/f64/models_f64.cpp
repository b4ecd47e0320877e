// The models in double precision, for the finite-difference tests only (tests link
// pmoe_models_f64; the tools carry no double-precision model code): the same template
// definitions as the float models, instantiated in double.
#include "models/conv_expert_impl.hpp"
#include "models/experts_model_impl.hpp"
#include "models/joint_moe_impl.hpp"
#include "models/separate_moe_impl.hpp"

namespace pmoe {

template void ConvForward(const RowMat<double>&, int, const int*, int, const double*, const double*,
                          int, Activation, double*, double*);
template void ConvForwardBackward(const RowMat<double>&, int, const int*, int, const double*,
                                  const double*, int, Activation, double*, ConvSlope<double>&,
                                  double*, double*, std::vector<double>&, bool);
template void ConvBackward(const RowMat<double>&, int, const int*, int, const double*,
                           const double*, int, Activation, double*, double*);
template void ConvForwardBackward4(const ConvBatch<double>&, int, int, Activation,
                                   ConvSlope<double>&, int, double*);
template RowMat<double> InterleavePatches(const RowMat<double>&, int);
template class ExpertsModel<double>;
template class JointMoe<double>;
template class SeparateMoe<double>;

}  // namespace pmoe
