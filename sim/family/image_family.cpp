// Data model B as a family (MODEL.md §3): image patches from MNIST-format IDX files.
#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/image_dataset.hpp"
#include "pmoe/data/image_model.hpp"
#include "pmoe/family/builtin.hpp"

namespace pmoe {
namespace {

// The cost model's old figure for any data (README "Speed"), kept: it orders work, no more.
constexpr double kImageSecondsPerValue = 25e-9;

class Image final : public DataFamily {
 public:
  std::string name() const override { return "image"; }
  std::string label() const override { return "image data"; }
  std::string help() const override { return "data model B, image patches (MODEL.md §3)"; }
  std::vector<std::string> reads() const override { return {"data.labels", "data.n"}; }
  // Data model B's own parameters (stored in DataSpec).
  std::vector<ParamInfo> params() const override {
    return {
        FieldRow("data.idx_dir",
                 "image data: mnist (MNIST digits, scripts/install-mnist.sh), fashion-mnist, or a "
                 "directory of MNIST-format IDX files (train-*, t10k-*)",
                 PMOE_SPEC_FIELD(data.idx_dir))
            .Labeled("image data"),
        FieldRow("data.class_pos", "image class playing o1 (label 0, y = +1)",
                 PMOE_SPEC_FIELD(data.class_pos), {}, 0, 255)
            .Labeled("image class of o1"),
        FieldRow("data.class_neg", "image class playing o2 (label 1, y = -1)",
                 PMOE_SPEC_FIELD(data.class_neg), {}, 0, 255)
            .Labeled("image class of o2"),
        FieldRow("data.irrelevant",
                 "classes of the other patches, e.g. 2,3,4 (empty: every other class)",
                 PMOE_SPEC_FIELD(data.irrelevant))
            .Labeled("classes of the other patches"),
        Unkeyed(FieldRow("data.classes",
                         "discriminative image classes, e.g. 0,1,2,3 (empty: class_pos "
                         "and class_neg)",
                         PMOE_SPEC_FIELD(data.classes))
                    .Labeled("discriminative image classes")),
    };
  }
  std::vector<MetricInfo> metrics() const override { return RealizedStatsMetrics(); }

  void Validate(const TrialSpec& spec, const std::string& where) const override {
    Require(!spec.data.idx_dir.empty(), spec, where, "data.idx_dir",
            "a directory of MNIST-format IDX files");
  }

  // d from the files (read once per process); SchemaError when they cannot be read.
  DataShape Shape(const TrialSpec& spec) const override {
    const auto images = SharedImageDataset(spec.data.idx_dir);
    int classes = 2;
    try {
      classes = static_cast<int>(DiscriminativeClasses(spec.data).size());
    } catch (const InfeasibleError&) {  // refused by the cell's feasibility check, by name
    }
    return {spec.data.n, images->rows * images->cols, classes};
  }

  std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t data_seed) const override {
    return std::make_unique<ImageModel>(spec.data, SharedImageDataset(spec.data.idx_dir),
                                        data_seed);
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
