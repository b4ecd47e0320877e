// The model and training parameters of the SGD-trained families (cnn, separate, joint; MODEL.md
// §4-5) as plain values, for the model factory and the trainers. The families declare them
// (sim/family/sgd_family.cpp, separate_family.cpp, joint_family.cpp; model.max_steps in
// shared_params.cpp) and fill this struct from a cell's parameters (ModelSpecOf,
// model_factory.hpp); the initializers below are the declared defaults.
#pragma once

#include <string>

namespace pmoe {

struct ModelSpec {
  std::string kind = "separate";  // the model family (model.kind): separate | joint | cnn
  int l = 4;                      // patches routed to each expert
  int k = 2;                      // experts (separate training: c; 0 there: one per class)
  int m = 40;                     // neurons in total, m/k per expert
  double lr = 0.2;
  int batch = 20;
  int epochs = 150;                      // epoch cap (0: none)
  long long max_steps = 0;               // step cap (0: the model family's default)
  bool early_stop = true;                // stop at zero training error at the end of an epoch
  double sigma_w = 0.1;                  // hidden weight init std
  double sigma_g = 1e-4;                 // joint gating kernel init std
  double sigma_r = 0.1;                  // separate router init std
  std::string output_init = "gaussian";  // gaussian: a ~ N(0,1); sign: +1 expert 1, -1 expert 2
  // auto: logistic on one output for two classes, softmax cross-entropy on c outputs for more
  // (MODEL.md §7); softmax also for two classes (the multiclass path of a binary cell).
  std::string loss = "auto";
  int router_N = 0;  // router training samples (first router_N); 0: all N
  double router_lr = 0.2;
  int router_batch = 20;
  int router_epochs = 100;
};

}  // namespace pmoe
