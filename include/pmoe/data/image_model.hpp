// Data model B, image patches (MODEL.md §3): each sample is n images on a square grid, one of the
// sample's discriminative class (class_pos for y = +1, class_neg for y = -1) at a uniform
// position, the others of uniformly chosen irrelevant classes; training samples from the train
// split, test samples from the test split; pixels scaled to [0, 1].
#pragma once

#include <memory>
#include <vector>

#include "pmoe/core/matrix.hpp"
#include "pmoe/data/data_source.hpp"
#include "pmoe/data/data_spec.hpp"
#include "pmoe/data/image_dataset.hpp"

namespace pmoe {

struct ImagePlan {
  int class_pos = 0, class_neg = 1;
  // The image class of each label (MODEL.md §7): data.classes, or {class_pos, class_neg}.
  std::vector<int> classes;
  std::vector<int> irrelevant;  // classes of the other n - 1 patches
};

// The discriminative classes a spec names: data.classes parsed, or {class_pos, class_neg}.
// Throws InfeasibleError when data.classes is not a list of distinct labels, at least two.
std::vector<int> DiscriminativeClasses(const DataSpec& spec);

// Throws InfeasibleError naming what cannot be: n not a square, a class without images in a
// split, discriminative and irrelevant classes overlapping, no irrelevant class.
ImagePlan PlanImageModel(const DataSpec& spec, const ImageDataset& images);

class ImageModel : public DataSource {
 public:
  ImageModel(const DataSpec& spec, std::shared_ptr<const ImageDataset> images, uint64_t seed);

  using DataSource::Draw;
  void Draw(Split split, int count, Dataset& out) const override;

  // On unit-normalized patches, with o_i the normalized mean of the train split's images of
  // discriminative class i: the realized delta_d = <o1, o2> (the largest over pairs), delta_r,
  // l* (over the trained pairs) and delta of MODEL.md §2, showing how far real images are from
  // the theory's assumptions.
  RealizedStats Measure(const Dataset& train, const Dataset& test) const;
  void Record(const Dataset& train, const Dataset& test, Metrics& metrics) const override {
    RecordRealizedStats(Measure(train, test), metrics);
  }

  const ImagePlan& plan() const { return plan_; }

 private:
  DataSpec spec_;
  std::shared_ptr<const ImageDataset> images_;
  uint64_t seed_;
  ImagePlan plan_;
  std::vector<Vecd> o_;  // (c) of (d): unit class means
};

}  // namespace pmoe
