// Families: a data family (pattern, image, ...) and a model family (cnn, separate, joint, ...)
// each declare in one place what a trial needs of them: the parameters they read, their checks,
// their cost, the metrics they record and a factory. RunTrial, the tools and the sweep engine
// read only these declarations, so a new family is a file or two plus its line in the list
// (family_list.cpp; the tests add their toy families to it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pmoe/core/metrics.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/spec.hpp"
#include "pmoe/data/data_source.hpp"
#include "pmoe/train/train_outcome.hpp"

namespace pmoe {

// What the data of a cell looks like, before any is drawn.
struct DataShape {
  int n = 0;        // patches per sample
  int d = 0;        // patch dimension
  int classes = 2;  // labels are 0..classes-1
};

// Nominal FLOPs of a trial, counted analytically from the shapes (2 per multiply-add of the
// matrix products; elementwise work ignored; the backward pass counts weight gradients only).
struct FlopCount {
  double train = 0;  // training steps (and a router phase)
  double eval = 0;   // the final forward passes over the training and test sets
  // Work that costs time out of proportion to its arithmetic (short reductions, one per expert
  // and class output), as the FLOPs that would take as long: the cost model counts it, FLOP
  // rates (pmoe-bench's GFLOP/s) do not.
  double overhead = 0;
  double total() const { return train + eval; }  // nominal FLOPs
  double cost() const { return total() + overhead; }
};

class DataFamily {
 public:
  virtual ~DataFamily() = default;
  virtual std::string name() const = 0;  // the value of data.model
  virtual std::string help() const = 0;
  // How figures and pages name it ("pattern data"; pmoe.plots.labels reads it from the families
  // table of docs/reference/parameters.md). Default: its name.
  virtual std::string label() const { return name(); }
  // The names of the parameters it reads: only these enter the data seed and the cell key.
  virtual std::vector<std::string> reads() const = 0;
  // Parameters only this family declares and reads (their values: TrialSpec::params).
  virtual std::vector<ParamInfo> params() const { return {}; }
  // Parameters it declares and reads that other families read too (by name, in their reads()).
  virtual std::vector<ParamInfo> shared_params() const { return {}; }
  // The realized statistics every trial records (MODEL.md §2: checked, never assumed).
  virtual std::vector<MetricInfo> metrics() const = 0;

  // Ranges of its parameters: throws ConfigError naming `where`, the key, value and expectation.
  virtual void Validate(const TrialSpec& spec, const std::string& where) const = 0;
  // May read files (image data); throws SchemaError when they cannot be read.
  virtual DataShape Shape(const TrialSpec& spec) const = 0;
  // Throws InfeasibleError naming the violated inequality when no construction exists.
  virtual std::unique_ptr<DataSource> Make(const TrialSpec& spec, uint64_t data_seed) const = 0;
  // Seconds to generate one sample on one core (for ordering work and `plan`).
  virtual double SecondsPerSample(const TrialSpec& spec, const DataShape& shape) const = 0;
};

// One trained model of a trial: made by its family from the spec and the init seed.
class Learner {
 public:
  virtual ~Learner() = default;
  // Trains on `train` (kept by reference until the learner is gone); family metrics of the
  // training itself (router steps, ...) go into `metrics`.
  virtual TrainOutcome Train(const Dataset& train, Metrics& metrics) = 0;
  // Accuracy and loss on the training set it was trained on.
  virtual Evaluation EvaluateTrain() = 0;
  // Accuracy and loss on `test`, and the family's test metrics (router hit rates, ...).
  virtual Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) = 0;
  // A router sample of its own (ModelFamily::RouterSamples > 0), given before Train and kept by
  // reference until the learner is gone. Learners without a router phase ignore it.
  virtual void UseRouterSamples(const Dataset& /*router*/) {}
};

// What the theory says a family needs: its sufficient sample complexity (MODEL.md §9, samples
// row) as a product of powers of the parameters' symbols, "l^8 p^12 delta^6 / eps^16" (n, l, k,
// p, c are data.n, model.l, model.k, data.p, data.c), and over the number of classes the factor
// that multiplies it (§7, appendix M: "c^12"), or "none (why)". Empty: the theory gives none.
// Sweeps write it into their result files (/theory), where pmoe-analyze reads the order of a
// swept parameter off it: the analysis never names a family.
struct SampleBound {
  std::string samples;
  std::string multiclass;
};

class ModelFamily {
 public:
  virtual ~ModelFamily() = default;
  virtual std::string name() const = 0;  // the value of model.kind
  virtual std::string help() const = 0;
  virtual std::string label() const { return name(); }  // as DataFamily's: "separate pMoE"
  virtual std::vector<std::string> reads() const = 0;
  virtual std::vector<ParamInfo> params() const { return {}; }
  virtual std::vector<ParamInfo> shared_params() const { return {}; }  // as DataFamily's
  virtual std::vector<MetricInfo> metrics() const = 0;

  // Ranges and combinations with the data's shape (l <= n, m divisible by k, ...).
  virtual void Validate(const TrialSpec& spec, const DataShape& shape,
                        const std::string& where) const = 0;
  // Nominal FLOPs of a trial that trains `epochs` epochs.
  virtual FlopCount NominalFlops(const TrialSpec& spec, const DataShape& shape,
                                 double epochs) const = 0;
  // Epochs a trial is expected to run: its cap, or a fraction of it under an early stop.
  virtual double ExpectedEpochs(const TrialSpec& spec) const = 0;
  virtual std::unique_ptr<Learner> Make(const TrialSpec& spec, const DataShape& shape,
                                        uint64_t init_seed) const = 0;
  // The theory's sample complexity of this model (none unless a family declares it).
  virtual SampleBound Bound() const { return {}; }
  // Whether the analysis divides by this model's N*: N*(this) / N*(other) for every other kind
  // of one design that is not a baseline itself (the CNN, the papers' comparison). Sweeps write
  // it into /theory/ratio_baseline.
  virtual bool RatioBaseline() const { return false; }
  // Samples of a separate router sample the trial draws for this spec (Split::kRouter) and gives
  // to the learner before training; 0: none (the router, if any, trains on the training set).
  virtual int RouterSamples(const TrialSpec& /*spec*/) const { return 0; }
};

// The explicit list of families every binary knows (family_list.cpp): the built-in ones, then
// those the binary adds (the tests' toys).
const std::vector<const DataFamily*>& DataFamilies();
const std::vector<const ModelFamily*>& ModelFamilies();

// The families a binary adds to the list: none, unless it links an object that defines these
// (family_list.cpp's are weak; tests/families/toy_families.cpp defines the tests' own).
std::vector<const DataFamily*> AddedDataFamilies();
std::vector<const ModelFamily*> AddedModelFamilies();

// The family a spec names; ConfigError naming data.model / model.kind and the choices if none.
const DataFamily& DataFamilyOf(const TrialSpec& spec);
const ModelFamily& ModelFamilyOf(const TrialSpec& spec);

// Checks a TrialSpec before anything runs: the core parameters, then the data family's and the
// model family's own checks (ranges and combinations such as l <= n), then the memory a trial
// would need against the machine's. Data-model feasibility is the data family's Make().
// Throws ConfigError naming `where`, the parameter, the value found and what was expected.
void ValidateSpec(const TrialSpec& spec, const std::string& where);

// Peak bytes one trial holds: its training and test sets (and their labels), stored as float.
double EstimateTrialBytes(const TrialSpec& spec);

// Every metric the families of these specs record, each name once, in family order.
std::vector<MetricInfo> MetricsOf(const std::vector<const TrialSpec*>& specs);

}  // namespace pmoe
