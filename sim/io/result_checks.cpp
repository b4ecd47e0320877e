#include "pmoe/io/result_checks.hpp"

#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"

namespace pmoe {
namespace {

constexpr int64_t kStatusCodes = 4;  // ok, diverged, infeasible, error
constexpr int64_t kStopCodes = 6;    // none, zero_train_error, epoch_cap, step_cap, diverged, rule
constexpr int64_t kMostTrials = 1 << 30;  // far above any sweep's trials per cell

template <typename T>
std::vector<T> Column(const H5File& file, const std::string& name) {
  if (!file.Exists(name)) throw SchemaError(file.path() + ": no column " + name);
  return file.ReadColumn<T>(name);
}

std::string AccuracyProblem(const char* name, double v, bool ok) {
  if (std::isnan(v))
    return ok ? std::string(name) + " is NaN for an ok trial (expected a value in [0, 1])" : "";
  if (!(v >= 0 && v <= 1))
    return std::string(name) + " " + std::to_string(v) + " (expected an accuracy in [0, 1])";
  return "";
}

}  // namespace

std::string CoreTrialProblem(const CoreTrialFields& r, int64_t trials_per_cell) {
  if (r.status < 0 || r.status >= kStatusCodes)
    return "status " + std::to_string(r.status) +
           " (expected 0..3: ok, diverged, infeasible, error)";
  if (r.stop_reason < 0 || r.stop_reason >= kStopCodes)
    return "stop_reason " + std::to_string(r.stop_reason) + " (expected 0.." +
           std::to_string(kStopCodes - 1) + ")";
  if (trials_per_cell > 0 && (r.trial < 0 || r.trial >= trials_per_cell))
    return "trial " + std::to_string(r.trial) + " (expected 0.." +
           std::to_string(trials_per_cell - 1) + ": trials_per_cell is " +
           std::to_string(trials_per_cell) + ")";
  if (r.success != 0 && r.success != 1)
    return "success " + std::to_string(r.success) + " (expected 0 or 1)";
  if (r.success == 1 && r.status != 0) return "success for a trial whose status is not ok";
  if (r.zero_train_error != 0 && r.zero_train_error != 1)
    return "zero_train_error " + std::to_string(r.zero_train_error) + " (expected 0 or 1)";
  if (r.epochs < 0) return "epochs " + std::to_string(r.epochs) + " (expected 0 or more)";
  if (r.steps < 0) return "steps " + std::to_string(r.steps) + " (expected 0 or more)";
  for (const auto& problem : {AccuracyProblem("test_acc", r.test_acc, r.status == 0),
                              AccuracyProblem("train_acc", r.train_acc, r.status == 0)})
    if (!problem.empty()) return problem;
  return "";
}

int64_t ShardAttributeCount(const std::string& path, const std::string& shard) {
  if (shard.empty()) return 0;
  const size_t slash = shard.find('/');
  int64_t index = 0, count = 0;
  if (slash != std::string::npos) {
    try {  // the checked integer parser: no wrap-around, no trailing bytes
      index = ParseIntegerInRange("", "", shard.substr(0, slash), 1, 1000000);
      count = ParseIntegerInRange("", "", shard.substr(slash + 1), 1, 1000000);
    } catch (const ConfigError&) {
      index = count = 0;
    }
  }
  if (index < 1 || index > count)
    throw SchemaError(path + ": attribute shard = \"" + shard +
                      "\" (expected I/K with 1 <= I <= K, or empty)");
  return count;
}

CheckedResult ReadCheckedResult(const H5File& file) {
  const std::string& path = file.path();
  CheckedResult c;
  const auto version = file.IntAttribute("/", "schema_version");
  if (!version)
    throw SchemaError(path + ": no schema_version attribute: not a pmoe-sweep result file");
  c.schema_version = *version;
  if (c.schema_version != 1)
    throw SchemaError(path + ": schema version " + std::to_string(c.schema_version) +
                      "; this tool reads version 1");
  const auto trials = file.IntAttribute("/", "trials_per_cell");
  if (!trials || *trials < 1 || *trials > kMostTrials)
    throw SchemaError(path + ": attribute trials_per_cell " +
                      (trials ? "= " + std::to_string(*trials) : std::string("is missing")) +
                      " (expected the sweep's trials per cell, 1 or more)");
  c.trials_per_cell = *trials;
  const auto config = file.StringAttribute("/", "config");
  if (!config || config->empty())
    throw SchemaError(path + ": attribute config " + (config ? "is empty" : "is missing") +
                      " (expected the sweep config's text)");
  c.config = *config;
  c.shard_count = ShardAttributeCount(path, file.StringAttribute("/", "shard").value_or(""));

  c.cell_ids = Column<uint64_t>(file, "/cells/cell_id");
  c.keys = file.ReadStrings("/cells/key");
  c.labels = file.ReadStrings("/cells/label");
  if (c.keys.size() != c.cell_ids.size() || c.labels.size() != c.cell_ids.size())
    throw SchemaError(path + ": /cells columns differ in length (cell_id " +
                      std::to_string(c.cell_ids.size()) + ", key " + std::to_string(c.keys.size()) +
                      ", label " + std::to_string(c.labels.size()) + ")");
  std::map<uint64_t, size_t> cell_row;
  for (size_t i = 0; i < c.cell_ids.size(); ++i) {
    if (c.keys[i].empty() || SplitCanonicalKey(c.keys[i]).empty())
      throw SchemaError(path + ": /cells row " + std::to_string(i) + ": key \"" + c.keys[i] +
                        "\" is not a list of name=value; pairs");
    if (c.cell_ids[i] != HashString(c.keys[i]))
      throw SchemaError(path + ": /cells row " + std::to_string(i) + ": cell_id " +
                        std::to_string(c.cell_ids[i]) +
                        " is not the hash of its key (a damaged file)");
    if (!cell_row.emplace(c.cell_ids[i], i).second)
      throw SchemaError(path + ": /cells rows " + std::to_string(cell_row[c.cell_ids[i]]) +
                        " and " + std::to_string(i) + " are the same cell");
  }

  c.cell = Column<uint64_t>(file, "/trials/cell_id");
  c.trial = Column<int32_t>(file, "/trials/trial");
  c.status = Column<uint8_t>(file, "/trials/status");
  c.success = Column<uint8_t>(file, "/trials/success");
  c.test_acc = Column<double>(file, "/trials/test_acc");
  c.train_acc = Column<double>(file, "/trials/train_acc");
  c.epochs = Column<int32_t>(file, "/trials/epochs");
  c.steps = Column<int64_t>(file, "/trials/steps");
  c.zero_train_error = Column<uint8_t>(file, "/trials/zero_train_error");
  c.stop_reason = Column<uint8_t>(file, "/trials/stop_reason");
  if (file.Exists("/theory")) {
    c.theory_kinds = file.ReadStrings("/theory/model_kind");
    c.theory_samples = file.ReadStrings("/theory/samples");
    c.theory_multiclass = file.ReadStrings("/theory/multiclass");
    if (file.Exists("/theory/ratio_baseline")) {
      c.theory_baseline = file.ReadStrings("/theory/ratio_baseline");
      if (c.theory_baseline.size() != c.theory_kinds.size())
        throw SchemaError(path + ": /theory/ratio_baseline has " +
                          std::to_string(c.theory_baseline.size()) + " rows, model_kind " +
                          std::to_string(c.theory_kinds.size()));
    }
    if (c.theory_samples.size() != c.theory_kinds.size() ||
        c.theory_multiclass.size() != c.theory_kinds.size())
      throw SchemaError(path + ": /theory columns differ in length (model_kind " +
                        std::to_string(c.theory_kinds.size()) + ", samples " +
                        std::to_string(c.theory_samples.size()) + ", multiclass " +
                        std::to_string(c.theory_multiclass.size()) + ")");
  }
  // The free-text column is not used by analysis, but a damaged heap reference in it is refused
  // here too, so that every reader refuses the same files (and none follows the reference).
  if (file.Exists("/trials/message")) (void)file.ReadStrings("/trials/message");
  const size_t rows = c.cell.size();
  const std::pair<const char*, size_t> lengths[] = {{"trial", c.trial.size()},
                                                    {"status", c.status.size()},
                                                    {"success", c.success.size()},
                                                    {"test_acc", c.test_acc.size()},
                                                    {"train_acc", c.train_acc.size()},
                                                    {"epochs", c.epochs.size()},
                                                    {"steps", c.steps.size()},
                                                    {"zero_train_error", c.zero_train_error.size()},
                                                    {"stop_reason", c.stop_reason.size()}};
  for (const auto& [name, size] : lengths)
    if (size != rows)
      throw SchemaError(path + ": /trials/" + name + " has " + std::to_string(size) +
                        " rows, /trials/cell_id " + std::to_string(rows) + " (a damaged file)");
  // 8-bit columns read through HDF5's conversion would clip 256 to 255: their stored values are
  // range-checked here as read, which the conversion saturates into refused codes.
  std::set<std::pair<uint64_t, int32_t>> seen;
  for (size_t r = 0; r < rows; ++r) {
    if (!cell_row.count(c.cell[r]))
      throw SchemaError(path + ": /trials row " + std::to_string(r) + ": cell_id " +
                        std::to_string(c.cell[r]) + " is no cell of /cells");
    CoreTrialFields f;
    f.trial = c.trial[r];
    f.status = c.status[r];
    f.stop_reason = c.stop_reason[r];
    f.success = c.success[r];
    f.zero_train_error = c.zero_train_error[r];
    f.epochs = c.epochs[r];
    f.steps = c.steps[r];
    f.test_acc = c.test_acc[r];
    f.train_acc = c.train_acc[r];
    if (const std::string problem = CoreTrialProblem(f, c.trials_per_cell); !problem.empty())
      throw SchemaError(path + ": /trials row " + std::to_string(r) + ": " + problem);
    if (!seen.insert({c.cell[r], c.trial[r]}).second)
      throw SchemaError(path + ": /trials row " + std::to_string(r) + " repeats trial " +
                        std::to_string(c.trial[r]) + " of cell " + std::to_string(c.cell[r]));
  }
  return c;
}

}  // namespace pmoe
