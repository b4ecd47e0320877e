// The parameters data models A (pattern) and B (image) take, as plain values. The data families
// declare them (sim/family/pattern_family.cpp, image_family.cpp; the shared data.labels, data.n
// and data.d in shared_params.cpp) and fill this struct from a cell's parameters once per call;
// the initializers below are the declared defaults.
#pragma once

#include <string>

namespace pmoe {

struct DataSpec {
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

}  // namespace pmoe
