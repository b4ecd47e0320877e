// Data model B: samples composed from IDX images (MODEL.md §3), and its realized statistics.
#include "pmoe/data/image_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/data/class_pairs.hpp"
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

std::vector<int> ParseClassList(const std::string& text, const std::string& key) {
  std::vector<int> classes;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    char* stop = nullptr;
    const long v = std::strtol(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < 0)
      throw InfeasibleError("infeasible data model: " + key + " = \"" + text +
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

std::vector<int> DiscriminativeClasses(const DataSpec& spec) {
  if (spec.classes.empty()) return {spec.class_pos, spec.class_neg};
  const std::vector<int> classes = ParseClassList(spec.classes, "data.classes");
  if (classes.size() < 2)
    throw InfeasibleError(
        "infeasible data model: data.classes names at least two classes "
        "violated: \"" +
        spec.classes + "\"");
  for (size_t i = 0; i < classes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (classes[i] == classes[j])
        throw InfeasibleError("infeasible data model: data.classes distinct violated: class " +
                              std::to_string(classes[i]) + " twice in \"" + spec.classes + "\"");
  return classes;
}

ImagePlan PlanImageModel(const DataSpec& spec, const ImageDataset& images) {
  const int side = static_cast<int>(std::lround(std::sqrt(spec.n)));
  if (side * side != spec.n)
    throw InfeasibleError(
        "infeasible data model: n = r*r (a square grid of images) violated: n = " +
        std::to_string(spec.n));
  ImagePlan plan;
  plan.class_pos = spec.class_pos;
  plan.class_neg = spec.class_neg;
  if (spec.classes.empty() && plan.class_pos == plan.class_neg)
    throw InfeasibleError("infeasible data model: class_pos != class_neg violated: both " +
                          std::to_string(plan.class_pos));
  plan.classes = DiscriminativeClasses(spec);
  plan.class_pos = plan.classes[0];
  plan.class_neg = plan.classes[1];
  auto discriminative = [&](int c) {
    return std::find(plan.classes.begin(), plan.classes.end(), c) != plan.classes.end();
  };
  if (spec.classes.empty()) {
    RequireClass(images, plan.class_pos, "discriminative (class_pos)");
    RequireClass(images, plan.class_neg, "discriminative (class_neg)");
  } else {
    for (int c : plan.classes) RequireClass(images, c, "discriminative (data.classes)");
  }
  if (spec.irrelevant.empty()) {
    for (int c = 0; c < images.classes; ++c)
      if (!discriminative(c) && HasImages(images.train, c) && HasImages(images.test, c))
        plan.irrelevant.push_back(c);
  } else {
    plan.irrelevant = ParseClassList(spec.irrelevant, "data.irrelevant");
  }
  for (int c : plan.irrelevant) {
    if (discriminative(c))
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
  for (int c : plan_.classes) o_.push_back(ClassPattern(*images_, c));
  // Degenerate images give no statistics (delta = 1 / (1 - delta_d) would be infinite): refused
  // when the cell is checked, before any trial.
  for (size_t i = 0; i < o_.size(); ++i) {
    if (o_[i].squaredNorm() == 0)
      throw InfeasibleError("infeasible data model: class " + std::to_string(plan_.classes[i]) +
                            "'s train images are all blank (their mean has no direction)");
    for (size_t j = 0; j < i; ++j)
      if (o_[i].dot(o_[j]) >= 1 - 1e-12)
        throw InfeasibleError("infeasible data model: delta_d < 1 violated: classes " +
                              std::to_string(plan_.classes[j]) + " and " +
                              std::to_string(plan_.classes[i]) +
                              " have the same mean image "
                              "direction");
  }
}

void ImageModel::Draw(Split split, int count, Dataset& out) const {
  // A router sample is drawn from the training images, never from the test pool.
  const ImageSplit& source = split == Split::kTest ? images_->test : images_->train;
  const int n = spec_.n, d = images_->rows * images_->cols;
  out.n = n;
  out.d = d;
  out.x.resize(static_cast<Eigen::Index>(count) * n, d);
  const int c = static_cast<int>(plan_.classes.size());
  out.classes = c;
  out.label.resize(count);
  out.disc_pos.resize(count);
  int row_of[kMaxPatches];
  for (int i = 0; i < count; ++i) {
    Rng rng = SampleStream(seed_, split, i);
    // Drawn with balanced labels too, so that the rest is drawn as usual; two classes draw the
    // binary model's coin (true: class 0).
    const int drawn = c == 2 ? (rng.Coin() ? 0 : 1) : static_cast<int>(rng.Below(c));
    const int sample_label = spec_.labels == "balanced" ? i % c : drawn;
    PlaceSlots(n, rng, row_of);
    out.label[i] = sample_label;
    out.disc_pos[i] = row_of[0];
    for (int slot = 0; slot < n; ++slot) {
      const int label = slot == 0 ? plan_.classes[sample_label]
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
  const int c = static_cast<int>(o_.size());
  const auto pairs = RouterPairs(c);
  stats.classes = c;
  stats.delta_d = -INFINITY;
  for (int i = 0; i < c; ++i)
    for (int j = i + 1; j < c; ++j) stats.delta_d = std::max(stats.delta_d, o_[i].dot(o_[j]));
  const double dprime = (1 - stats.delta_d) / 2;
  double weakest_closer = INFINITY;
  int most_closer = 0;
  std::vector<int> most_per_pair(pairs.size(), 0);
  std::vector<Vecd> diff;  // o_i - o_j of each trained pair, as the binary model measured it
  for (const auto& [first, second] : pairs) diff.push_back(o_[first] - o_[second]);
  for (const Dataset* set : {&train, &test}) {
    for (int i = 0; i < set->size(); ++i) {
      std::vector<int> closer(pairs.size(), 0);
      for (int j = 0; j < set->n; ++j) {
        if (j == set->disc_pos[i]) continue;
        const Vecd q = set->x.row(static_cast<Eigen::Index>(i) * set->n + j).cast<double>();
        const double norm = q.norm();
        if (norm == 0) continue;  // a blank image has no direction
        for (int a = 0; a < c; ++a)
          stats.delta_r = std::max(stats.delta_r, std::abs(o_[a].dot(q)) / norm);
        for (size_t p = 0; p < pairs.size(); ++p) {
          const double toward = std::abs(diff[p].dot(q)) / norm;
          if (toward > dprime) {
            ++closer[p];
            weakest_closer = std::min(weakest_closer, toward);
          }
        }
      }
      for (size_t p = 0; p < pairs.size(); ++p) {
        most_per_pair[p] = std::max(most_per_pair[p], closer[p]);
        most_closer = std::max(most_closer, closer[p]);
      }
    }
  }
  stats.l_star = 1 + most_closer;
  if (std::max(stats.delta_d, stats.delta_r) >= 1 - 1e-12)
    throw InfeasibleError(
        "infeasible data model: delta_r < 1 violated: an irrelevant image "
        "points along a class's mean image (degenerate images)");
  stats.delta = 1 / (1 - std::max(stats.delta_d, stats.delta_r));
  stats.confusers_outrank = most_closer > 0 && weakest_closer > 1 - stats.delta_d;
  for (int most : most_per_pair) stats.pair_l_star.push_back(1 + most);
  return stats;
}

}  // namespace pmoe
