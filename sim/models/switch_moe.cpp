// The switch MoE's full-batch forward and backward passes (MODEL.md §8). The samples are grouped
// by their expert (a stable counting sort) and each expert runs over its own samples, read in
// place (conv_expert.cpp).
// (The definitions are in switch_moe_impl.hpp.)
#include "switch_moe_impl.hpp"

namespace pmoe {

std::vector<double> DispatchCounts(const std::vector<int>& cluster, int K,
                                   const std::vector<int>& expert, int M) {
  PMOE_CHECK(cluster.size() == expert.size()) << cluster.size() << " vs " << expert.size();
  std::vector<double> counts(static_cast<size_t>(K) * M, 0.0);
  for (size_t i = 0; i < cluster.size(); ++i)
    counts.at(static_cast<size_t>(cluster[i]) * M + expert[i]) += 1;
  return counts;
}

double DispatchEntropy(const std::vector<double>& counts, int K, int M) {
  double n = 0;
  for (double c : counts) n += c;
  if (n == 0) return NAN;
  double entropy = 0;
  for (int m = 0; m < M; ++m) {
    double n_m = 0;
    for (int k = 0; k < K; ++k) n_m += counts[static_cast<size_t>(k) * M + m];
    if (n_m == 0) continue;
    double h = 0;
    for (int k = 0; k < K; ++k) {
      const double share = counts[static_cast<size_t>(k) * M + m] / n_m;
      if (share > 0) h -= share * std::log(share);
    }
    entropy += n_m / n * h;
  }
  return entropy;
}

int ExpertsInUse(const std::vector<double>& counts, int K, int M) {
  int used = 0;
  for (int m = 0; m < M; ++m) {
    double n_m = 0;
    for (int k = 0; k < K; ++k) n_m += counts[static_cast<size_t>(k) * M + m];
    used += n_m > 0;
  }
  return used;
}

template SwitchInput<float> MakeSwitchInput(const RowMat<float>&, int, bool);
template class SwitchMoe<float>;

}  // namespace pmoe
