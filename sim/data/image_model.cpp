// Data model B: samples composed from IDX images (MODEL.md §3), and its realized statistics.
#include "pmoe/data/image_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/sample_stream.hpp"

namespace pmoe {
namespace {

bool HasImages(const ImageSplit& split, int label) {
  return label >= 0 && label < static_cast<int>(split.by_class.size()) &&
         !split.by_class[label].empty();
}

void RequireClass(const ImageDataset& images, int label, const std::string& role) {
  for (const auto* split : {&images.train, &images.test})
    if (!HasImages(*split, label))
      throw InfeasibleError("infeasible data model: " + role + " class " + std::to_string(label) +
                            " has no images in the " + (split == &images.train ? "train" : "test") +
                            " split of " + images.dir + " (classes there: 0.." +
                            std::to_string(images.classes - 1) + ")");
}

std::vector<int> ParseClassList(const std::string& text) {
  std::vector<int> classes;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    const long v = std::strtol(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < 0)
      throw InfeasibleError("infeasible data model: data.irrelevant = \"" + text +
                            "\" is not a comma-separated list of class labels");
    classes.push_back(static_cast<int>(v));
    start = end + 1;
  }
  return classes;
}

// The unit mean of a class's train images: the class's "pattern" for the realized statistics.
Vecd ClassPattern(const ImageDataset& images, int label) {
  const int d = images.rows * images.cols;
  Vecd mean = Vecd::Zero(d);
  for (int index : images.train.by_class[label])
    for (int j = 0; j < d; ++j) mean[j] += images.train.pixels[size_t(index) * d + j];
  return mean.normalized();
}

}  // namespace

ImagePlan PlanImageModel(const DataSpec& spec, const ImageDataset& images) {
  const int side = static_cast<int>(std::lround(std::sqrt(spec.n)));
  if (side * side != spec.n)
    throw InfeasibleError("infeasible data model: n = r*r (a square grid of images) violated: n = " +
                          std::to_string(spec.n));
  ImagePlan plan;
  plan.class_pos = spec.class_pos;
  plan.class_neg = spec.class_neg;
  if (plan.class_pos == plan.class_neg)
    throw InfeasibleError("infeasible data model: class_pos != class_neg violated: both " +
                          std::to_string(plan.class_pos));
  RequireClass(images, plan.class_pos, "discriminative (class_pos)");
  RequireClass(images, plan.class_neg, "discriminative (class_neg)");
  if (spec.irrelevant.empty()) {
    for (int c = 0; c < images.classes; ++c)
      if (c != plan.class_pos && c != plan.class_neg && HasImages(images.train, c) &&
          HasImages(images.test, c))
        plan.irrelevant.push_back(c);
  } else {
    plan.irrelevant = ParseClassList(spec.irrelevant);
  }
  for (int c : plan.irrelevant) {
    if (c == plan.class_pos || c == plan.class_neg)
      throw InfeasibleError("infeasible data model: irrelevant class " + std::to_string(c) +
                            " is also a discriminative class");
    RequireClass(images, c, "irrelevant");
  }
  if (spec.n > 1 && plan.irrelevant.empty())
    throw InfeasibleError("infeasible data model: no irrelevant class for the other n - 1 = " +
                          std::to_string(spec.n - 1) + " patches");
  return plan;
}

ImageModel::ImageModel(const DataSpec& spec, std::shared_ptr<const ImageDataset> images,
                       uint64_t seed)
    : spec_(spec), images_(std::move(images)), seed_(seed), plan_(PlanImageModel(spec, *images_)) {
  o1_ = ClassPattern(*images_, plan_.class_pos);
  o2_ = ClassPattern(*images_, plan_.class_neg);
  // Degenerate images give no statistics (delta = 1 / (1 - delta_d) would be infinite): refused
  // when the cell is checked, before any trial.
  for (const auto& [pattern, label] : {std::pair{&o1_, plan_.class_pos},
                                       std::pair{&o2_, plan_.class_neg}})
    if (pattern->squaredNorm() == 0)
      throw InfeasibleError("infeasible data model: class " + std::to_string(label) +
                            "'s train images are all blank (their mean has no direction)");
  if (o1_.dot(o2_) >= 1 - 1e-12)
    throw InfeasibleError("infeasible data model: delta_d < 1 violated: classes " +
                          std::to_string(plan_.class_pos) + " and " +
                          std::to_string(plan_.class_neg) + " have the same mean image "
                          "direction");
}

void ImageModel::Draw(Split split, int count, Dataset& out) const {
  const ImageSplit& source = split == Split::kTrain ? images_->train : images_->test;
  const int n = spec_.n, d = images_->rows * images_->cols;
  out.n = n;
  out.d = d;
  out.x.resize(static_cast<Eigen::Index>(count) * n, d);
  out.classes = 2;
  out.label.resize(count);
  out.disc_pos.resize(count);
  int row_of[kMaxPatches];
  for (int i = 0; i < count; ++i) {
    Rng rng = SampleStream(seed_, split, i);
    const bool coin = rng.Coin();  // drawn with balanced labels too: the rest is drawn as usual
    const bool positive = spec_.labels == "balanced" ? i % 2 == 0 : coin;
    PlaceSlots(n, rng, row_of);
    out.label[i] = positive ? 0 : 1;
    out.disc_pos[i] = row_of[0];
    for (int slot = 0; slot < n; ++slot) {
      const int label = slot == 0 ? (positive ? plan_.class_pos : plan_.class_neg)
                                  : plan_.irrelevant[rng.Below(plan_.irrelevant.size())];
      const auto& pool = source.by_class[label];
      const uint8_t* pixels = source.pixels.data() + size_t(pool[rng.Below(pool.size())]) * d;
      float* row = out.x.row(static_cast<Eigen::Index>(i) * n + row_of[slot]).data();
      for (int j = 0; j < d; ++j) row[j] = pixels[j] * (1.0f / 255.0f);
    }
  }
  out.pattern_scores.resize(0, 2);  // not recorded: Measure normalizes each patch itself
}

RealizedStats ImageModel::Measure(const Dataset& train, const Dataset& test) const {
  RealizedStats stats;
  stats.delta_d = o1_.dot(o2_);
  const double dprime = (1 - stats.delta_d) / 2;
  const Vecd diff = o1_ - o2_;
  double weakest_closer = INFINITY;
  int most_closer = 0;
  for (const Dataset* set : {&train, &test}) {
    for (int i = 0; i < set->size(); ++i) {
      int closer = 0;
      for (int j = 0; j < set->n; ++j) {
        if (j == set->disc_pos[i]) continue;
        const Vecd q = set->x.row(static_cast<Eigen::Index>(i) * set->n + j).cast<double>();
        const double norm = q.norm();
        if (norm == 0) continue;  // a blank image has no direction
        stats.delta_r =
            std::max({stats.delta_r, std::abs(o1_.dot(q)) / norm, std::abs(o2_.dot(q)) / norm});
        const double score = std::abs(diff.dot(q)) / norm;
        if (score > dprime) {
          ++closer;
          weakest_closer = std::min(weakest_closer, score);
        }
      }
      most_closer = std::max(most_closer, closer);
    }
  }
  stats.l_star = 1 + most_closer;
  if (std::max(stats.delta_d, stats.delta_r) >= 1 - 1e-12)
    throw InfeasibleError("infeasible data model: delta_r < 1 violated: an irrelevant image "
                          "points along a class's mean image (degenerate images)");
  stats.delta = 1 / (1 - std::max(stats.delta_d, stats.delta_r));
  stats.confusers_outrank = most_closer > 0 && weakest_closer > 1 - stats.delta_d;
  return stats;
}

}  // namespace pmoe
