// A toy data family: n patches of dimension data.toy_dim, Gaussian noise, and the sign of the
// label (+1 for class 0) times data.toy_signal added to coordinate 0 of patch 0. It records the
// fraction of class-0 training samples as its metric.
#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "toy_families.hpp"

namespace pmoe::test {
namespace {

class ToySource final : public DataSource {
 public:
  ToySource(int n, int d, double signal, uint64_t seed)
      : n_(n), d_(d), signal_(signal), seed_(seed) {}
  void Draw(Split split, int count, Dataset& out) const override {
    out.n = n_;
    out.d = d_;
    out.classes = 2;
    out.x.resize(static_cast<Eigen::Index>(count) * n_, d_);
    out.label.resize(count);
    out.disc_pos.assign(count, 0);
    for (int i = 0; i < count; ++i) {
      Rng rng(CombineSeed(CombineSeed(seed_, static_cast<uint64_t>(split)), i));
      out.label[i] = rng.Coin() ? 0 : 1;
      for (Eigen::Index r = 0; r < n_; ++r)
        for (int j = 0; j < d_; ++j) out.x(i * n_ + r, j) = static_cast<float>(rng.Normal());
      out.x(static_cast<Eigen::Index>(i) * n_, 0) +=
          static_cast<float>(out.label[i] == 0 ? signal_ : -signal_);
    }
  }
  void Record(const Dataset& train, const Dataset&, Metrics& metrics) const override {
    int zeros = 0;
    for (int label : train.label) zeros += label == 0;
    metrics.Set("toy_class0_fraction", static_cast<double>(zeros) / train.size());
  }

 private:
  int n_, d_;
  double signal_;
  uint64_t seed_;
};

class ToyData final : public DataFamily {
 public:
  std::string name() const override { return "toy"; }
  std::string help() const override { return "toy data (tests only)"; }
  std::vector<std::string> reads() const override { return {"data.n"}; }
  std::vector<ParamInfo> params() const override {
    return {IntRow("data.toy_dim", 3, 1, 64, "toy patch dimension"),
            DoubleRow("data.toy_signal", 2.0, "toy signal on coordinate 0 of patch 0")};
  }
  std::vector<MetricInfo> metrics() const override {
    return {{"toy_class0_fraction", ColumnType::kF64, "class-0 share of the training set", true}};
  }
  void Validate(const TrialSpec& spec, const std::string& where) const override {
    Require(DoubleParam(spec, "data.toy_signal") >= 0, spec, where, "data.toy_signal",
            "a non-negative number");
  }
  DataShape Shape(const TrialSpec& spec) const override {
    return {static_cast<int>(IntParam(spec, "data.n")),
            static_cast<int>(IntParam(spec, "data.toy_dim")), 2};
  }
  std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t seed) const override {
    return std::make_unique<ToySource>(static_cast<int>(IntParam(spec, "data.n")), Shape(spec).d,
                                       DoubleParam(spec, "data.toy_signal"), seed);
  }
  double SecondsPerSample(const TrialSpec&, const DataShape& shape) const override {
    return 1e-8 * shape.n * shape.d;
  }
};

}  // namespace

const DataFamily& ToyDataFamily() {
  static const ToyData family;
  return family;
}

}  // namespace pmoe::test
