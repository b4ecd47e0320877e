// DoubleSoftmaxTwo4's dispatch and its portable twin: each sample through ScalarLanes, the
// operations the AVX2 kernel applies to each of its four lanes.
#include "pmoe/models/double_softmax_lanes.hpp"

#include "pmoe/core/exp_log1p.hpp"
#include "pmoe/models/kernel_path.hpp"

namespace pmoe {

void DoubleSoftmaxTwo4Portable(const double* mine, const double* other, double* value, double* g) {
  for (int k = 0; k < 4; ++k)
    value[k] = DoubleSoftmaxTwoLanes<ScalarLanes>(mine[k], other[k], g[k]);
}

void DoubleSoftmaxTwo4(const double* mine, const double* other, double* value, double* g) {
  if (ActiveKernelPath() == KernelPath::kPortable)
    DoubleSoftmaxTwo4Portable(mine, other, value, g);
  else
    DoubleSoftmaxTwo4Avx2(mine, other, value, g);
}

}  // namespace pmoe
