// Writing and reading the HDF5 result file. Columns come from two tables: the parameter table
// for /cells and the sweep's RowSchema for /trials, so neither list is repeated here.
#include "pmoe/sweep/store/result_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/durable_file.hpp"
#include "pmoe/io/h5_file.hpp"
#include "pmoe/io/result_checks.hpp"
#include "pmoe/sweep/run/work_plan.hpp"
#include "pmoe/sweep/store/journal.hpp"

namespace pmoe {
namespace {

void WriteMeta(H5File& file, const ResultMeta& meta) {
  file.SetAttribute("/", "schema_version", kSchemaVersion);
  file.SetAttribute("/", "numerics_version", static_cast<int64_t>(meta.numerics_version));
  file.SetAttribute("/", "numerics_build", meta.numerics_build);
  if (!meta.adaptive.empty()) {
    file.SetAttribute("/", "adaptive", meta.adaptive);
    file.SetAttribute("/", "adaptive_series", meta.adaptive_series);
  }
  if (!meta.precision.empty()) {
    file.SetAttribute("/", "precision", meta.precision);
    file.SetAttribute("/", "precision_looks", meta.precision_looks);
  }
  file.SetAttribute("/", "name", meta.name);
  file.SetAttribute("/", "config", meta.config);
  file.SetAttribute("/", "config_path", meta.config_path);
  file.SetAttribute("/", "master_seed", static_cast<int64_t>(meta.master_seed));
  file.SetAttribute("/", "trials_per_cell", static_cast<int64_t>(meta.trials_per_cell));
  file.SetAttribute("/", "shard", meta.shard);
  file.SetAttribute("/", "command_line", meta.command_line);
  file.SetAttribute("/", "created_utc", meta.created_utc);
  file.SetAttribute("/", "tool_version", meta.tool_version);
  file.SetAttribute("/", "git_describe", meta.git_describe);
}

void WriteCells(H5File& file, const std::vector<Cell>& cells) {
  file.CreateGroup("/cells");
  std::vector<uint64_t> ids;
  std::vector<std::string> keys, labels;
  for (const Cell& c : cells) {
    ids.push_back(c.id);
    keys.push_back(c.key);
    labels.push_back(c.label);
  }
  file.WriteColumn("/cells/cell_id", ids);
  file.WriteStrings("/cells/key", keys);
  file.WriteStrings("/cells/label", labels);
  // One column per parameter some cell reads; a cell that does not read it has NaN (numbers)
  // or "" (text) there. Integers are int64 when every cell reads them.
  for (const ParamInfo& p : ParamTable()) {
    size_t readers = 0;
    for (const Cell& c : cells) readers += p.ReadBy(c.spec);
    if (readers == 0) continue;
    // "success" would collide with /trials/success when the two tables are joined.
    const std::string name = "/cells/" + (p.name == "success" ? "success_criterion" : p.name);
    auto number = [&](const Cell& c) -> double {
      const std::string v = p.get(c.spec);
      return p.type == ParamType::kBool ? (v == "true" ? 1.0 : 0.0) : std::stod(v);
    };
    const bool integer = p.type == ParamType::kInt || p.type == ParamType::kBool;
    if (integer && readers == cells.size()) {
      std::vector<int64_t> values;
      for (const Cell& c : cells)
        values.push_back(p.type == ParamType::kBool ? static_cast<int64_t>(number(c))
                                                    : std::stoll(p.get(c.spec)));
      file.WriteColumn(name, values);
    } else if (integer || p.type == ParamType::kDouble) {
      std::vector<double> values;
      for (const Cell& c : cells) values.push_back(p.ReadBy(c.spec) ? number(c) : NAN);
      file.WriteColumn(name, values);
    } else {
      std::vector<std::string> values;
      for (const Cell& c : cells) values.push_back(p.ReadBy(c.spec) ? p.get(c.spec) : "");
      file.WriteStrings(name, values);
    }
  }
}

// /resolved: for each parameter whose default stands for a rule (data.p_confuser = -1: half of
// p), the value the rule gave each cell, in /cells order (NaN where a cell does not read it), so
// that a reader needs no copy of the rule. The keys keep the value as given.
void WriteResolved(H5File& file, const std::vector<Cell>& cells) {
  bool any = false;
  for (const ParamInfo& p : ParamTable()) {
    if (!p.resolve) continue;
    std::vector<double> values;
    bool read = false;
    for (const Cell& c : cells) {
      const bool reads = p.ReadBy(c.spec);
      read = read || reads;
      values.push_back(reads ? std::stod(p.resolve(c.spec)) : NAN);
    }
    if (!read) continue;
    if (!any) file.CreateGroup("/resolved");
    any = true;
    file.WriteColumn("/resolved/" + p.name, values);
  }
}

void WriteTrials(H5File& file, const RowSchema& schema, const std::vector<TrialRow>& rows) {
  file.CreateGroup("/trials");
  file.SetAttribute("/", "trial_columns", schema.Text());
  for (const Column& col : schema.columns()) {
    const std::string name = "/trials/" + col.name;
    auto ints = [&](auto zero) {
      std::vector<decltype(zero)> values;
      for (const TrialRow& r : rows) values.push_back(static_cast<decltype(zero)>(col.get_int(r)));
      file.WriteColumn(name, values);
    };
    switch (col.type) {
      case ColumnType::kU64:
        ints(uint64_t{});
        break;
      case ColumnType::kI64:
        ints(int64_t{});
        break;
      case ColumnType::kI32:
        ints(int32_t{});
        break;
      case ColumnType::kU8:
        ints(uint8_t{});
        break;
      case ColumnType::kF64: {
        std::vector<double> values;
        for (const TrialRow& r : rows) values.push_back(col.get_double(r));
        file.WriteColumn(name, values);
        break;
      }
      case ColumnType::kString: {
        std::vector<std::string> values;
        for (const TrialRow& r : rows) values.push_back(col.get_text(r));
        file.WriteStrings(name, values);
        break;
      }
      case ColumnType::kF64List: {
        // Each trial's length here, all values trial after trial in /trial_lists/NAME: trial
        // r's values are values[sum of the lengths before r, + its length).
        std::vector<int64_t> lengths;
        std::vector<double> values;
        for (const TrialRow& r : rows) {
          const std::vector<double>& list = col.get_list(r);
          lengths.push_back(static_cast<int64_t>(list.size()));
          values.insert(values.end(), list.begin(), list.end());
        }
        file.WriteColumn(name, lengths);
        if (!file.Exists("/trial_lists")) file.CreateGroup("/trial_lists");
        file.WriteColumn("/trial_lists/" + col.name, values);
        file.SetAttribute("/trial_lists/" + col.name, "description", col.description);
        file.SetAttribute(name, "list", int64_t{1});
        break;
      }
    }
    file.SetAttribute(name, "description", col.description);
    // A list's column holds lengths, not values: analysis summarizes scalar metrics only.
    if (col.metric &&
        col.type != ColumnType::kF64List) {  // declared by a family: analysis summarizes it, and
                                             // plots it when a rate
      file.SetAttribute(name, "metric", int64_t{1});
      file.SetAttribute(name, "rate", int64_t{col.rate});
    }
  }
}

// The schema a file's trial_columns attribute lists: the class counts and metrics between the
// core columns and the tail, each metric's meaning and rate flag from its column's attributes.
RowSchema SchemaOf(const H5File& file) {
  const auto text = file.StringAttribute("/", "trial_columns");
  if (!text)
    throw SchemaError(file.path() +
                      ": no trial_columns attribute (written by an older "
                      "pmoe-sweep: rerun the sweep with this one)");
  return RowSchemaFromText(*text, file.path() + ": trial_columns", [&](MetricInfo& m) {
    m.help = file.StringAttribute("/trials/" + m.name, "description").value_or("");
    m.rate = file.IntAttribute("/trials/" + m.name, "rate").value_or(0) != 0;
  });
}

std::vector<TrialRow> ReadTrials(const H5File& file, const RowSchema& schema) {
  std::vector<TrialRow> rows;
  bool first = true;
  for (const Column& col : schema.columns()) {
    const std::string name = "/trials/" + col.name;
    if (!file.Exists(name))
      throw SchemaError(file.path() + ": no column " + name + " (expected by schema version " +
                        std::to_string(kSchemaVersion) + ")");
    auto fill = [&](const auto& values, auto assign) {
      if (first) rows.resize(values.size());
      if (values.size() != rows.size())
        throw SchemaError(file.path() + ": column " + name + " has " +
                          std::to_string(values.size()) + " rows, others " +
                          std::to_string(rows.size()));
      for (size_t i = 0; i < values.size(); ++i) assign(rows[i], values[i]);
      first = false;
    };
    auto set_int = [&](TrialRow& r, auto v) { col.set_int(r, static_cast<int64_t>(v)); };
    switch (col.type) {
      case ColumnType::kU64:
        fill(file.ReadColumn<uint64_t>(name), set_int);
        break;
      case ColumnType::kI64:
        fill(file.ReadColumn<int64_t>(name), set_int);
        break;
      case ColumnType::kI32:
        fill(file.ReadColumn<int32_t>(name), set_int);
        break;
      case ColumnType::kU8:
        fill(file.ReadColumn<uint8_t>(name), set_int);
        break;
      case ColumnType::kF64:
        fill(file.ReadColumn<double>(name), [&](TrialRow& r, double v) { col.set_double(r, v); });
        break;
      case ColumnType::kString:
        fill(file.ReadStrings(name),
             [&](TrialRow& r, const std::string& v) { col.set_text(r, v); });
        break;
      case ColumnType::kF64List: {
        const std::string values_name = "/trial_lists/" + col.name;
        if (!file.Exists(values_name))
          throw SchemaError(file.path() + ": no column " + values_name +
                            " (the values of the "
                            "list column " +
                            name + ")");
        const auto values = file.ReadColumn<double>(values_name);
        size_t at = 0;
        fill(file.ReadColumn<int64_t>(name), [&](TrialRow& r, int64_t length) {
          if (length < 0 || static_cast<uint64_t>(length) > values.size() - at)
            throw SchemaError(file.path() + ": " + name + " lists more values than " + values_name +
                              " holds (" + std::to_string(values.size()) + ")");
          col.set_list(r, std::vector<double>(values.begin() + static_cast<long>(at),
                                              values.begin() + static_cast<long>(at + length)));
          at += static_cast<size_t>(length);
        });
        if (at != values.size())
          throw SchemaError(file.path() + ": " + values_name + " holds " +
                            std::to_string(values.size()) + " values, its lengths " +
                            std::to_string(at));
        break;
      }
    }
  }
  return rows;
}

// Every cell once, its id the hash of its key (as ExpandGrid made it): a duplicated or altered row
// is named here rather than mistaken later for another sweep or another cell.
void CheckCells(const std::string& path, const std::vector<StoredCell>& cells) {
  std::map<uint64_t, size_t> seen;
  for (size_t i = 0; i < cells.size(); ++i) {
    const StoredCell& c = cells[i];
    if (c.key.empty() || SplitCanonicalKey(c.key).empty())
      throw SchemaError(path + ": /cells row " + std::to_string(i) + ": key \"" + c.key +
                        "\" is not a list of name=value; pairs");
    if (c.id != HashString(c.key))
      throw SchemaError(path + ": /cells row " + std::to_string(i) + ": cell_id " +
                        std::to_string(c.id) + " is not the hash of its key (a damaged file)");
    const auto [it, fresh] = seen.emplace(c.id, i);
    if (!fresh)
      throw SchemaError(path + ": /cells rows " + std::to_string(it->second) + " and " +
                        std::to_string(i) + " are the same cell (" + c.label + ")");
  }
}

// Every row names a cell of /cells and a trial index below trials_per_cell, with a known status,
// and no (cell, trial) twice: a damaged row must never be copied into a journal or counted.
void CheckRows(const std::string& path, const ResultContents& contents) {
  std::vector<std::string> keys;
  for (const StoredCell& c : contents.cells) keys.push_back(c.key);
  const RowLimits limits = LimitsOf(keys, contents.meta.trials_per_cell);
  std::set<std::pair<uint64_t, int>> seen;
  for (size_t i = 0; i < contents.rows.size(); ++i) {
    const TrialRow& r = contents.rows[i];
    if (const std::string problem = RowProblem(r, limits); !problem.empty())
      throw SchemaError(path + ": /trials row " + std::to_string(i) + ": " + problem);
    if (!seen.insert({r.cell_id, r.result.trial}).second)
      throw SchemaError(path + ": /trials row " + std::to_string(i) + " repeats trial " +
                        std::to_string(r.result.trial) + " of cell " + std::to_string(r.cell_id));
  }
}

}  // namespace

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

namespace {

// /theory: the sample complexity each model family of the cells declares (SampleBound), one row
// per model kind in order of first sight ("" where it declares none), so that pmoe-analyze
// prints the theory's order of any family without knowing it; and the label it declares, so that
// figures and pages name any family without knowing it either.
void WriteTheory(H5File& file, const std::vector<Cell>& cells) {
  std::vector<std::string> kinds, labels, samples, multiclass, baseline;
  for (const Cell& c : cells) {
    const ModelFamily& family = ModelFamilyOf(c.spec);
    if (std::find(kinds.begin(), kinds.end(), family.name()) != kinds.end()) continue;
    const SampleBound bound = family.Bound();
    kinds.push_back(family.name());
    labels.push_back(family.label());
    samples.push_back(bound.samples);
    multiclass.push_back(bound.multiclass);
    baseline.push_back(family.RatioBaseline() ? "true" : "false");
  }
  file.CreateGroup("/theory");
  file.WriteStrings("/theory/model_kind", kinds);
  file.WriteStrings("/theory/samples", samples);
  file.WriteStrings("/theory/multiclass", multiclass);
  file.WriteStrings("/theory/ratio_baseline", baseline);
  file.WriteStrings("/theory/label", labels);
}

}  // namespace

void WriteResultFile(const std::string& path, const ResultMeta& meta,
                     const std::vector<Cell>& cells, const RowSchema& schema,
                     std::vector<TrialRow> rows) {
  std::map<uint64_t, size_t> position;
  for (size_t i = 0; i < cells.size(); ++i) position[cells[i].id] = i;
  for (const TrialRow& r : rows)
    PMOE_CHECK(position.count(r.cell_id)) << "row of unknown cell " << r.cell_id;
  std::sort(rows.begin(), rows.end(), [&](const TrialRow& a, const TrialRow& b) {
    const size_t pa = position[a.cell_id], pb = position[b.cell_id];
    return pa != pb ? pa < pb : a.result.trial < b.result.trial;
  });
  // Built in memory, then written by ReplaceFileDurably: a full disk or a read-only directory
  // is a clean IoError and the previous file stays as it was.
  std::vector<char> image;
  {
    H5File file = H5File::CreateInMemory(path);
    WriteMeta(file, meta);
    WriteCells(file, cells);
    WriteResolved(file, cells);
    WriteTheory(file, cells);
    WriteTrials(file, schema, rows);
    image = file.Image();
    file.Close();
  }
  ReplaceFileDurably(path, image);
}

ResultContents ReadResultFile(const std::string& path) {
  const H5File file = H5File::OpenReadOnly(path);
  // The checks every reader of result files makes (pmoe-analyze's too: result_checks.hpp).
  (void)ReadCheckedResult(file);
  const auto version = file.IntAttribute("/", "schema_version");
  if (!version)
    throw SchemaError(path + ": no schema_version attribute: not a pmoe-sweep result file");
  if (*version != kSchemaVersion)
    throw SchemaError(path + ": schema version " + std::to_string(*version) +
                      "; this tool reads "
                      "version " +
                      std::to_string(kSchemaVersion));
  ResultContents contents;
  ResultMeta& m = contents.meta;
  auto text = [&](const char* name) { return file.StringAttribute("/", name).value_or(""); };
  auto integer = [&](const char* name, int64_t fallback, int64_t min, int64_t max) {
    const int64_t v = file.IntAttribute("/", name).value_or(fallback);
    if (v < min || v > max)
      throw SchemaError(path + ": attribute " + name + " = " + std::to_string(v) + " (expected " +
                        std::to_string(min) + ".." + std::to_string(max) + ")");
    return v;
  };
  m.numerics_version = static_cast<int>(integer("numerics_version", 1, 0, INT32_MAX));
  m.numerics_build = text("numerics_build");
  m.adaptive = text("adaptive");
  m.adaptive_series = text("adaptive_series");
  m.precision = text("precision");
  m.precision_looks = text("precision_looks");
  m.name = text("name");
  m.config = text("config");
  m.config_path = text("config_path");
  m.master_seed = static_cast<uint64_t>(integer("master_seed", 0, 0, INT64_MAX));
  m.trials_per_cell = static_cast<int>(integer("trials_per_cell", -1, 1, kMaxTrials));
  m.shard = text("shard");
  (void)ShardAttributeCount(path, m.shard);  // "I/K", as ShardSpec::Text wrote it
  m.command_line = text("command_line");
  m.created_utc = text("created_utc");
  m.tool_version = text("tool_version");
  m.git_describe = text("git_describe");
  const auto ids = file.ReadColumn<uint64_t>("/cells/cell_id");
  const auto keys = file.ReadStrings("/cells/key");
  const auto labels = file.ReadStrings("/cells/label");
  if (keys.size() != ids.size() || labels.size() != ids.size())
    throw SchemaError(path + ": /cells columns differ in length");
  for (size_t i = 0; i < ids.size(); ++i) contents.cells.push_back({ids[i], keys[i], labels[i]});
  CheckCells(path, contents.cells);
  contents.schema = SchemaOf(file);
  contents.rows = ReadTrials(file, *contents.schema);
  CheckRows(path, contents);
  return contents;
}

}  // namespace pmoe
