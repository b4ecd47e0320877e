// What one grid cell asks for: N, the success criterion, the data and model families and their
// parameters. The core holds only its own parameters as fields; every family parameter is
// canonical text in `params`, declared (name, type, default, range, help) by the family that
// reads it and read by that family through typed accessors (param_table.hpp).
#pragma once

#include <map>
#include <string>

namespace pmoe {

// The families a cell runs, named as the parameters that choose them (data.model, model.kind):
// the core picks the families by these, and the families' parameters by the families.
struct DataChoice {
  std::string model = "pattern";  // the data family: pattern (A) | image (B) | cluster (C)
};
struct ModelChoice {
  std::string kind = "separate";  // the model family: separate | joint | cnn | switch | single
};

struct TrialSpec {
  DataChoice data;
  ModelChoice model;
  int N = 500;        // training samples
  int N_test = 2000;  // test samples
  std::string success = "test_accuracy>=0.95";
  // The families' parameters by dotted name ("data.n", "model.lr"), as canonical text (what
  // SetParam stores); absent: the declared default.
  std::map<std::string, std::string> params;
};

}  // namespace pmoe
