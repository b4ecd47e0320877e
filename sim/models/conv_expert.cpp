// The two-output convolution of MODEL.md §8 on Eigen products: A = X W + b, then per-sample
// sums of act(A) over patches and filter halves; backward gW = X^T dA, gb = column sums of dA.
#include "pmoe/models/conv_expert.hpp"

namespace pmoe {

template <typename T>
void ConvForward(const RowMat<T>& x, Eigen::Index first_row, int samples, int P, const T* W,
                 const T* b, int J, Activation act, RowMat<T>& A, RowMat<T>& f,
                 Eigen::Index first_sample) {
  const Eigen::Index rows = static_cast<Eigen::Index>(samples) * P;
  const Eigen::Index d = x.cols();
  if (A.rows() < first_row + rows || A.cols() != J) A.conservativeResize(first_row + rows, J);
  const Eigen::Map<const RowMat<T>> Wm(W, d, J);
  const Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>> bm(b, J);
  auto block = A.middleRows(first_row, rows);
  block.noalias() = x.middleRows(first_row, rows) * Wm;
  block.rowwise() += bm;
  const int half = J / 2;
  for (int i = 0; i < samples; ++i) {
    T sum[2] = {0, 0};
    for (int p = 0; p < P; ++p) {
      const T* a = block.row(static_cast<Eigen::Index>(i) * P + p).data();
      for (int o = 0; o < 2; ++o)
        for (int j = o * half; j < (o + 1) * half; ++j)
          sum[o] += act == Activation::kCubic ? a[j] * a[j] * a[j] : a[j];
    }
    f(first_sample + i, 0) = sum[0];
    f(first_sample + i, 1) = sum[1];
  }
}

template <typename T>
void ConvBackward(const RowMat<T>& x, Eigen::Index first_row, int samples, int P,
                  const RowMat<T>& A, const RowMat<T>& df, Eigen::Index first_sample, int J,
                  Activation act, RowMat<T>& dA, T* gW, T* gb) {
  const Eigen::Index rows = static_cast<Eigen::Index>(samples) * P;
  const Eigen::Index d = x.cols();
  if (dA.rows() < first_row + rows || dA.cols() != J) dA.conservativeResize(first_row + rows, J);
  const int half = J / 2;
  for (int i = 0; i < samples; ++i) {
    const T slope[2] = {df(first_sample + i, 0), df(first_sample + i, 1)};
    for (int p = 0; p < P; ++p) {
      const Eigen::Index r = first_row + static_cast<Eigen::Index>(i) * P + p;
      const T* a = A.row(r).data();
      T* g = dA.row(r).data();
      for (int j = 0; j < J; ++j) {
        const T s = slope[j < half ? 0 : 1];
        g[j] = act == Activation::kCubic ? s * 3 * a[j] * a[j] : s;
      }
    }
  }
  Eigen::Map<RowMat<T>> gWm(gW, d, J);
  Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>> gbm(gb, J);
  const auto block = dA.middleRows(first_row, rows);
  gWm.noalias() = x.middleRows(first_row, rows).transpose() * block;
  gbm = block.colwise().sum();
}

template void ConvForward(const RowMat<float>&, Eigen::Index, int, int, const float*,
                          const float*, int, Activation, RowMat<float>&, RowMat<float>&,
                          Eigen::Index);
template void ConvForward(const RowMat<double>&, Eigen::Index, int, int, const double*,
                          const double*, int, Activation, RowMat<double>&, RowMat<double>&,
                          Eigen::Index);
template void ConvBackward(const RowMat<float>&, Eigen::Index, int, int, const RowMat<float>&,
                           const RowMat<float>&, Eigen::Index, int, Activation, RowMat<float>&,
                           float*, float*);
template void ConvBackward(const RowMat<double>&, Eigen::Index, int, int, const RowMat<double>&,
                           const RowMat<double>&, Eigen::Index, int, Activation, RowMat<double>&,
                           double*, double*);

}  // namespace pmoe
