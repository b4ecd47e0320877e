// What the three SGD-trained families (cnn, separate, joint; MODEL.md §4-5) share: the
// parameters they read, their checks, their cost, and a learner that trains a Model<float> by
// mini-batch SGD under the training budget. Each family file adds its own part.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pmoe/family/family.hpp"
#include "pmoe/family/field_params.hpp"
#include "pmoe/family/model_factory.hpp"
#include "pmoe/models/model.hpp"
#include "pmoe/train/sgd_trainer.hpp"

namespace pmoe {

// The parameters every SGD family reads (their checks are the shared rows' own:
// shared_params.cpp, run by ValidateSpec for whichever family reads them).
std::vector<std::string> SgdReads();

// The parameters every SGD family may read (model.l, model.m, model.lr, ...), on ModelSpec's
// fields.
const FieldParams<ModelSpec>& SgdFields();

// The rows the SGD families share (SgdFields and the shared model.max_steps), those of them in
// `reads`: each SGD family declares them as its shared_params(), identically, so the table holds
// each row once.
std::vector<ParamInfo> SgdParams(const std::vector<std::string>& reads);

// The metrics every SGD family records with c > 2 classes (MODEL.md §7): accuracy per class.
std::vector<MetricInfo> SgdMetrics();

// A budget's expected epochs: the cap, or a third of it under an early stop; a step cap
// converted at ceil(N / batch) steps per epoch.
double SgdExpectedEpochs(const TrialSpec& spec);

// The work of the outputs beyond the first, per sample and pass (forward, backward or
// evaluation): c outputs under the softmax loss (MODEL.md §7) against the one output of the
// logistic loss, with `experts` experts of `rows` rows each per sample. `flops`: the output
// products, rows x m per further output. `overhead`: one short reduction per expert and further
// output, whose time is mostly not arithmetic; none for one output, so that two-class cells
// keep their cost (and sweeps their order and shards).
struct OutputWork {
  double flops = 0;
  double overhead = 0;
};
OutputWork ExtraOutputWork(const TrialSpec& spec, const DataShape& shape, double experts,
                           double rows);

// FLOPs from per-sample multiply-adds: forward and backward of one training sample, forward of
// one evaluated sample, and a once-per-trial extra (a router phase); `overhead` per sample and
// pass (OutputWork) goes to FlopCount::overhead.
FlopCount SgdFlops(const TrialSpec& spec, double epochs, double forward, double backward,
                   double eval_forward, double once, double overhead = 0);

class SgdLearner : public Learner {
 public:
  SgdLearner(std::unique_ptr<Model<float>> model, const TrialSpec& spec, uint64_t init_seed);

  TrainOutcome Train(const Dataset& train, Metrics& metrics) override;
  Evaluation EvaluateTrain() override;
  Evaluation EvaluateTest(const Dataset& test, Metrics& metrics) override;

 protected:
  // Before SGD on the experts (the separate router phase).
  virtual void BeforeSgd(const Dataset& train, Metrics& metrics) {}

  // Test accuracy and loss, and with more than two classes the accuracy of each class.
  Evaluation EvaluateOn(const PatchBlocks<float>& in, const Dataset& test, Metrics& metrics);

  std::unique_ptr<Model<float>> model_;
  TrialSpec spec_;
  ModelSpec settings_;  // the model and training parameters of spec_ (ModelSpecOf)
  uint64_t init_seed_;
  const Dataset* train_ = nullptr;
  PatchBlocks<float> train_in_;  // the model's view of the training set, prepared once
};

}  // namespace pmoe
