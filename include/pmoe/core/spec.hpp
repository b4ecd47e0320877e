// What one grid cell asks for: the data model, the model and its training, N and the success
// criterion. Defaults and one-line meanings live in param_table.cpp, the one place for them.
#pragma once

#include <map>
#include <string>

namespace pmoe {

// Data model parameters (MODEL.md §2; `model` also selects §3 image and §8 cluster data later).
struct DataSpec {
  std::string model = "pattern";    // the data family: pattern (A) | image (B)
  std::string labels = "iid";       // iid: fair independent labels; balanced: sample i gets i mod c
  int n = 16;                       // patches per sample
  int d = 64;                       // patch dimension
  double delta_d = 0.2;             // <o1, o2>
  double delta_r = 0.6;             // bound on |<o_a, q>| for irrelevant patterns q
  int p = 8;                        // class-irrelevant pattern sets
  int p_confuser = -1;              // confuser sets; -1: half of p (at least 2 when l* > 1)
  int l_star = 4;                   // 1 + confusers per sample
  double radius = 0.05;             // cap radius of each pattern set
  double confuser_strength = 1.0;   // where confuser centers sit in their feasible interval
  std::string confusers = "fixed";  // fixed: K = l*-1 per sample; uniform: K ~ U{0..l*-1}
  double noise = 0.0;               // additive N(0, noise^2/d) per patch coordinate
  int c = 2;                        // classes (MODEL.md §7); 2 is the binary model
  // Data model B (images; d comes from the files):
  std::string idx_dir = "/usr/share/datasets/fashion-mnist";  // MNIST-format IDX files
  int class_pos = 0;                                          // the image class playing o1 (y = +1)
  int class_neg = 1;                                          // the image class playing o2 (y = -1)
  std::string irrelevant;  // classes of the other patches, "2,3,..."; empty: all others
  std::string classes;     // multiclass (§7): the discriminative classes "0,1,2,3";
                           // empty: class_pos and class_neg
};

// Model and training parameters (MODEL.md §4-5) of the built-in SGD-trained families.
struct ModelSpec {
  std::string kind = "separate";  // the model family: separate | joint | cnn
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

struct TrialSpec {
  DataSpec data;
  ModelSpec model;
  int N = 500;        // training samples
  int N_test = 2000;  // test samples
  std::string success = "test_accuracy>=0.95";
  // Parameters a family declares for itself (family.hpp), by dotted name, as canonical text;
  // absent: the declared default.
  std::map<std::string, std::string> extra;
};

}  // namespace pmoe
