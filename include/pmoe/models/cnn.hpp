// The CNN of MODEL.md §4: m ReLU neurons applied to every one of the n patches, averaged.
#pragma once

#include "pmoe/models/experts_model.hpp"

namespace pmoe {

template <typename T>
class Cnn : public ExpertsModel<T> {
 public:
  Cnn(int m, int d, Vec<T> output_weights)
      : ExpertsModel<T>(/*k=*/1, m, d, std::move(output_weights)) {}

  // All n patches of each sample, read in place.
  PatchBlocks<T> Prepare(const RowMat<T>& x, int samples) const override {
    return AllPatches(x, samples);
  }
};

}  // namespace pmoe
