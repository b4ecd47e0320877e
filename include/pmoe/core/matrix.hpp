// Matrix and vector aliases: row-major so that each patch (a row) is contiguous in memory.
#pragma once

#include <Eigen/Core>  // Dense adds decompositions nobody here uses: a second per file to parse

namespace pmoe {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;

using RowMatf = RowMat<float>;
using Vecf = Vec<float>;
using Vecd = Vec<double>;

}  // namespace pmoe
