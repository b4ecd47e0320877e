#include "pmoe/io/result_checks.hpp"

#include <algorithm>
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
// The /trials columns every result file lists in trial_columns (read below, in their types).
const char* const kCoreColumns[] = {"cell_id",          "trial",      "status", "success",
                                    "test_acc",         "train_acc",  "epochs", "steps",
                                    "zero_train_error", "stop_reason"};
// Wall times and the training loss: never negative (NaN: not measured, a diverged loss).
const char* const kNotNegative[] = {"data_ms", "train_ms", "eval_ms", "wall_ms", "train_loss"};

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

bool IsCore(const std::string& name) {
  for (const char* core : kCoreColumns)
    if (name == core) return true;
  return false;
}

struct ListedColumn {
  std::string name, type;  // as trial_columns lists it: "router_hit", "f64"
};

// The columns the file's trial_columns attribute lists ("name:type,..."): every type one the
// tools write (sim/core/metrics.cpp ColumnTypeName), every core column among them.
std::vector<ListedColumn> ListedColumns(const H5File& file) {
  const auto text = file.StringAttribute("/", "trial_columns");
  if (!text || text->empty())
    throw SchemaError(file.path() + ": attribute trial_columns " +
                      (text ? "is empty" : "is missing") + " (expected name:type,...)");
  static const std::set<std::string> kTypes = {"u64", "i64",     "i32",   "u8",
                                               "f64", "f64list", "string"};
  std::vector<ListedColumn> columns;
  std::set<std::string> names;
  size_t start = 0;
  while (start <= text->size()) {
    const size_t end = std::min(text->find(',', start), text->size());
    const std::string item = text->substr(start, end - start);
    const size_t colon = item.find(':');
    const std::string name = item.substr(0, colon);
    const std::string type = colon == std::string::npos ? "" : item.substr(colon + 1);
    if (name.empty() || !kTypes.count(type))
      throw SchemaError(file.path() + ": trial_columns lists \"" + item +
                        "\" (expected name:type, type one of u64, i64, i32, u8, f64, f64list, "
                        "string)");
    columns.push_back({name, type});
    names.insert(name);
    start = end + 1;
  }
  for (const char* core : kCoreColumns)
    if (!names.count(core))
      throw SchemaError(file.path() + ": trial_columns has no " + core + " (a core column)");
  return columns;
}

// "" when the values of a listed column other than the core ones are possible, else what is
// wrong with the first one that is not (the rules pmoe.results applies too).
std::string ValueProblem(const H5File& file, const ListedColumn& c,
                         const std::vector<double>& values) {
  const std::string where = "/trials/" + c.name;
  const bool metric = file.IntAttribute(where, "metric").value_or(0) != 0;
  const bool rate = metric && c.type == "f64" && file.IntAttribute(where, "rate").value_or(0) != 0;
  // -1: an integer metric a trial did not record, or a class the cell does not have.
  const bool minus_one =
      (metric && (c.type == "i32" || c.type == "i64")) || c.name.rfind("train_count_", 0) == 0;
  bool not_negative = false;
  for (const char* name : kNotNegative) not_negative |= c.name == name;
  for (size_t r = 0; r < values.size(); ++r) {
    const double v = values[r];  // NaN compares false throughout: a value not recorded
    const std::string row = "/trials row " + std::to_string(r) + ": " + c.name + " = ";
    if (rate && (v < 0 || v > 1)) return row + FormatDouble(v) + " (expected a fraction in [0, 1])";
    if (minus_one && v < -1)
      return row + FormatDouble(v) + " (expected 0 or more, or -1 where not recorded)";
    if (not_negative && v < 0) return row + FormatDouble(v) + " (expected 0 or more)";
  }
  return "";
}

// Every column trial_columns lists is there, one value per row, stored in its listed type (the
// tools write exactly these types; a column converted on the way is not a file they wrote), and
// holds possible values. An f64list column holds each trial's list length; its values are
// /trial_lists/NAME.
void CheckListedColumns(const H5File& file, size_t rows) {
  const std::string& path = file.path();
  for (const ListedColumn& c : ListedColumns(file)) {
    const std::string where = "/trials/" + c.name;
    if (!file.Exists(where))
      throw SchemaError(path + ": no column " + where + " (listed in trial_columns)");
    const std::string stored = file.StoredTypeName(where);
    const std::string expected = c.type == "f64list" ? "i64" : c.type;
    if (stored != expected)
      throw SchemaError(path + ": " + where + " is stored as " + stored + ", expected " + expected +
                        " (as trial_columns lists it)");
    if (IsCore(c.name)) continue;  // read and checked in their own types
    // A string column is read whole although analysis does not use it: a damaged heap
    // reference in it is refused here, so that every reader refuses the same files (and none
    // follows the reference).
    const std::vector<double> values =
        c.type == "string" ? std::vector<double>() : file.ReadColumn<double>(where);
    const size_t length = c.type == "string" ? file.ReadStrings(where).size() : values.size();
    if (length != rows)
      throw SchemaError(path + ": " + where + " has " + std::to_string(length) +
                        " rows, /trials/cell_id " + std::to_string(rows) + " (a damaged file)");
    if (const std::string problem = ValueProblem(file, c, values); !problem.empty())
      throw SchemaError(path + ": " + problem);
    if (c.type == "f64list") {
      double total = 0;
      for (const double n : values) total += n < 0 ? NAN : n;
      const std::string list = "/trial_lists/" + c.name;
      if (!file.Exists(list))
        throw SchemaError(path + ": no column " + list + " (for " + where + ")");
      if (file.StoredTypeName(list) != "f64")
        throw SchemaError(path + ": " + list + " is stored as " + file.StoredTypeName(list) +
                          ", expected f64");
      const size_t held = file.ReadColumn<double>(list).size();
      if (!(total == static_cast<double>(held)))
        throw SchemaError(path + ": " + where + " lists " + FormatDouble(total) +
                          " values in all (or a negative length), " + list + " holds " +
                          std::to_string(held) + " (expected the same)");
    }
  }
}

// Every other /cells column (a parameter's value per cell, read by pmoe-analyze for the parameters
// keys leave out) is 1-D with one value per cell: checked here so that pmoe-sweep refuses a
// damaged one as pmoe-analyze and pmoe.results do.
void CheckCellParameterColumns(const H5File& file, size_t cells) {
  for (const std::string& name : file.List("/cells")) {
    if (name == "cell_id" || name == "key" || name == "label") continue;  // read on their own
    const std::string where = "/cells/" + name;
    const size_t rows = file.IsStringColumn(where) ? file.ReadStrings(where).size()
                                                   : file.ReadColumn<double>(where).size();
    if (rows != cells)
      throw SchemaError(file.path() + ": " + where + " has " + std::to_string(rows) +
                        " rows, /cells/cell_id " + std::to_string(cells));
  }
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

namespace {

// The root attributes every result file has: schema version, trials per cell, config, name, shard.
void ReadRootAttributes(const H5File& file, CheckedResult& c) {
  const std::string& path = file.path();
  const auto version = file.IntAttribute("/", "schema_version");
  if (!version)
    throw SchemaError(path + ": no schema_version attribute: not a pmoe-sweep result file");
  c.schema_version = *version;
  if (c.schema_version != 1)
    throw SchemaError(path + ": schema version " + std::to_string(c.schema_version) +
                      "; this tool reads version 1");
  const auto trials = file.IntAttribute("/", "trials_per_cell");
  // The bound a config's trials has (kMaxTrials), which pmoe.results and pmoe-sweep apply too.
  if (!trials || *trials < 1 || *trials > kMaxTrials)
    throw SchemaError(path + ": attribute trials_per_cell " +
                      (trials ? "= " + std::to_string(*trials) : std::string("is missing")) +
                      " (expected the sweep's trials per cell, 1.." + std::to_string(kMaxTrials) +
                      ")");
  c.trials_per_cell = *trials;
  const auto config = file.StringAttribute("/", "config");
  if (!config || config->empty())
    throw SchemaError(path + ": attribute config " + (config ? "is empty" : "is missing") +
                      " (expected the sweep config's text)");
  c.config = *config;
  // Every file the tools write names its sweep (the Python reader's plots and methods need it).
  if (!file.StringAttribute("/", "name"))
    throw SchemaError(path + ": attribute name is missing (expected the sweep's name)");
  c.shard_count = ShardAttributeCount(path, file.StringAttribute("/", "shard").value_or(""));
}

// /cells: ids, keys and labels, each id its key's hash, no cell twice; returns each id's row.
std::map<uint64_t, size_t> ReadCells(const H5File& file, CheckedResult& c) {
  const std::string& path = file.path();
  std::map<uint64_t, size_t> cell_row;
  c.cell_ids = Column<uint64_t>(file, "/cells/cell_id");
  c.keys = file.ReadStrings("/cells/key");
  c.labels = file.ReadStrings("/cells/label");
  if (c.keys.size() != c.cell_ids.size() || c.labels.size() != c.cell_ids.size())
    throw SchemaError(path + ": /cells columns differ in length (cell_id " +
                      std::to_string(c.cell_ids.size()) + ", key " + std::to_string(c.keys.size()) +
                      ", label " + std::to_string(c.labels.size()) + ")");
  CheckCellParameterColumns(file, c.cell_ids.size());
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
  return cell_row;
}

// /theory, when the file has it: one row per model kind, its columns of one length.
void ReadTheory(const H5File& file, CheckedResult& c) {
  const std::string& path = file.path();
  if (!file.Exists("/theory")) return;
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

// Each /trials row: a cell of /cells, its core values possible, no (cell, trial) pair twice.
void CheckTrialRows(const std::string& path, const CheckedResult& c,
                    const std::map<uint64_t, size_t>& cell_row) {
  // 8-bit columns read through HDF5's conversion would clip 256 to 255: their stored values are
  // range-checked here as read, which the conversion saturates into refused codes.
  std::set<std::pair<uint64_t, int32_t>> seen;
  for (size_t r = 0; r < c.cell.size(); ++r) {
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
}

// /trials' core columns, one value per row each, and each row's values and (cell, trial) pair.
void ReadCoreTrials(const H5File& file, CheckedResult& c,
                    const std::map<uint64_t, size_t>& cell_row) {
  const std::string& path = file.path();
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
  CheckListedColumns(file, rows);
  CheckTrialRows(path, c, cell_row);
}

}  // namespace

CheckedResult ReadCheckedResult(const H5File& file) {
  CheckedResult c;
  ReadRootAttributes(file, c);
  const std::map<uint64_t, size_t> cell_row = ReadCells(file, c);
  ReadTheory(file, c);
  ReadCoreTrials(file, c, cell_row);
  return c;
}

}  // namespace pmoe
