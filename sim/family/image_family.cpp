// Data model B as a family (MODEL.md §3): image patches from MNIST-format IDX files.
#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "pmoe/data/image_model.hpp"
#include "pmoe/family/builtin.hpp"
#include "shared_params.hpp"

namespace pmoe {
namespace {

// The cost model's old figure for any data (README "Speed"), kept: it orders work, no more.
constexpr double kImageSecondsPerValue = 25e-9;

// Data model B's own parameters, on DataSpec's fields.
const FieldParams<DataSpec>& ImageFields() {
  static const FieldParams<DataSpec> params = {
      ParamOnField("data.idx_dir",
                   "image data: mnist (MNIST digits, scripts/install-mnist.sh), fashion-mnist, or "
                   "a directory of MNIST-format IDX files (train-*, t10k-*)",
                   &DataSpec::idx_dir)
          .Labeled("image data"),
      ParamOnField("data.class_pos", "image class playing o1 (label 0, y = +1)",
                   &DataSpec::class_pos, {}, 0, 255)
          .Labeled("image class of o1"),
      ParamOnField("data.class_neg", "image class playing o2 (label 1, y = -1)",
                   &DataSpec::class_neg, {}, 0, 255)
          .Labeled("image class of o2"),
      ParamOnField("data.irrelevant",
                   "classes of the other patches, e.g. 2,3,4 (empty: every other class)",
                   &DataSpec::irrelevant)
          .Labeled("classes of the other patches"),
      Unkeyed(ParamOnField("data.classes",
                           "discriminative image classes, e.g. 0,1,2,3 (empty: class_pos "
                           "and class_neg)",
                           &DataSpec::classes)
                  .Labeled("discriminative image classes")),
  };
  return params;
}

// The image model's parameters in the cell `spec`.
DataSpec ImageSpecOf(const TrialSpec& spec) {
  DataSpec data;
  Read(spec, SharedDataParams(), data);
  Read(spec, ImageFields(), data);
  return data;
}

class Image final : public DataFamily {
 public:
  std::string name() const override { return "image"; }
  std::string label() const override { return "image data"; }
  std::string help() const override { return "data model B, image patches (MODEL.md §3)"; }
  std::vector<std::string> reads() const override { return {"data.labels", "data.n"}; }
  std::vector<ParamInfo> shared_params() const override { return SharedParams(reads()); }
  std::vector<ParamInfo> params() const override { return Rows(ImageFields()); }
  std::vector<MetricInfo> metrics() const override { return RealizedStatsMetrics(); }

  void Validate(const TrialSpec& spec, const std::string& where) const override {
    Require(!ImageSpecOf(spec).idx_dir.empty(), spec, where, "data.idx_dir",
            "a directory of MNIST-format IDX files");
  }

  // d from the files (read once per process); SchemaError when they cannot be read.
  DataShape Shape(const TrialSpec& spec) const override {
    const DataSpec data = ImageSpecOf(spec);
    const auto images = SharedImageDataset(data.idx_dir);
    int classes = 2;
    try {
      classes = static_cast<int>(DiscriminativeClasses(data).size());
    } catch (const InfeasibleError&) {  // refused by the cell's feasibility check, by name
    }
    return {data.n, images->rows * images->cols, classes};
  }

  std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t data_seed) const override {
    const DataSpec data = ImageSpecOf(spec);
    return std::make_unique<ImageModel>(data, SharedImageDataset(data.idx_dir), data_seed);
  }

  double SecondsPerSample(const TrialSpec&, const DataShape& shape) const override {
    return kImageSecondsPerValue * shape.n * shape.d;
  }
};

}  // namespace

const DataFamily& ImageFamily() {
  static const Image family;
  return family;
}

}  // namespace pmoe
