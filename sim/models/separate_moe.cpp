// Routing of the separately trained pMoE: top-l patches per expert under frozen router kernels.
#include "pmoe/models/separate_moe.hpp"

#include <cstring>

#include "pmoe/models/topl.hpp"

namespace pmoe {

template <typename T>
SeparateMoe<T>::SeparateMoe(int k, int m, int d, int l, Vec<T> output_weights, RowMat<T> router)
    : ExpertsModel<T>(k, m, d, std::move(output_weights)), l_(l), router_(std::move(router)) {}

template <typename T>
std::vector<int> SeparateMoe<T>::Route(const RowMat<T>& x, int samples) const {
  return RouteAll<T>(x, samples, router_, l_);
}

template <typename T>
PatchBlocks<T> SeparateMoe<T>::Prepare(const RowMat<T>& x, int samples) const {
  return Gather(x, samples, Route(x, samples));
}

template <typename T>
PatchBlocks<T> SeparateMoe<T>::Gather(const RowMat<T>& x, int samples,
                                      const std::vector<int>& routes) const {
  const int k = this->k_;
  const int n = static_cast<int>(x.rows() / samples);
  const int d = static_cast<int>(x.cols());
  PatchBlocks<T> in;
  in.samples = samples;
  in.rows_per_sample = l_;
  in.d = d;
  in.owned.assign(k, RowMat<T>(static_cast<Eigen::Index>(samples) * l_, d));
  for (int i = 0; i < samples; ++i)
    for (int s = 0; s < k; ++s)
      for (int t = 0; t < l_; ++t) {
        const int j = routes[(static_cast<size_t>(i) * k + s) * l_ + t];
        std::memcpy(in.owned[s].row(static_cast<Eigen::Index>(i) * l_ + t).data(),
                    x.row(static_cast<Eigen::Index>(i) * n + j).data(), sizeof(T) * d);
      }
  for (const auto& block : in.owned) in.blocks.push_back(block.data());
  return in;
}

template class SeparateMoe<float>;
template class SeparateMoe<double>;

}  // namespace pmoe
