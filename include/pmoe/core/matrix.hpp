// Matrix and vector aliases: row-major so that each patch (a row) is contiguous in memory.
#pragma once

#include <Eigen/Dense>

namespace pmoe {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

using RowMatf = RowMat<float>;
using Vecf = Vec<float>;
using Vecd = Vec<double>;

}  // namespace pmoe
