// The stored fields of a trial: core columns, class counts, declared metrics (scalars and lists).
#include "pmoe/sweep/store/trial_row.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

// A column with its name, type and description, its accessors still empty.
Column Named(std::string name, ColumnType type, std::string description) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  c.description = std::move(description);
  return c;
}

// Builders for the table rows: an accessor lambda `field(row) -> T&` per column.
template <typename F>
Column IntColumn(std::string name, ColumnType type, std::string description, F field) {
  Column c = Named(std::move(name), type, std::move(description));
  c.get_int = [field](const TrialRow& r) {
    return static_cast<int64_t>(field(const_cast<TrialRow&>(r)));
  };
  c.set_int = [field](TrialRow& r, int64_t v) {
    using T = std::remove_reference_t<decltype(field(r))>;
    field(r) = static_cast<T>(v);
  };
  return c;
}

template <typename F>
Column DoubleColumn(std::string name, std::string description, F field, bool timing = false) {
  Column c = Named(std::move(name), ColumnType::kF64, std::move(description));
  c.get_double = [field](const TrialRow& r) { return field(const_cast<TrialRow&>(r)); };
  c.set_double = [field](TrialRow& r, double v) { field(r) = v; };
  c.timing = timing;
  return c;
}

// Training samples of class `c`; -1 when the trial recorded no such class.
Column ClassCountColumn(int c) {
  Column col = Named("train_count_" + std::to_string(c), ColumnType::kI32,
                     "training samples of class " + std::to_string(c));
  col.get_int = [c](const TrialRow& r) -> int64_t {
    const auto& counts = r.result.class_counts;
    return c < static_cast<int>(counts.size()) ? counts[c] : -1;
  };
  col.set_int = [c](TrialRow& r, int64_t v) {
    if (v < 0) return;
    auto& counts = r.result.class_counts;
    if (static_cast<int>(counts.size()) <= c) counts.resize(c + 1, 0);
    counts[c] = static_cast<int>(v);
  };
  return col;
}

// A declared metric: NaN (floats) or -1 (integers) where a trial did not record it.
Column MetricColumn(const MetricInfo& info) {
  Column col = Named(info.name, info.type, info.help);
  col.metric = true;
  col.rate = info.rate;
  const std::string name = info.name;
  if (info.type == ColumnType::kF64List) {  // absent and empty are the same: no values
    col.get_list = [name](const TrialRow& r) -> const std::vector<double>& {
      return r.result.metrics.GetList(name);
    };
    col.set_list = [name](TrialRow& r, std::vector<double> v) {
      if (!v.empty()) r.result.metrics.SetList(name, std::move(v));
    };
  } else if (info.type == ColumnType::kF64) {
    col.get_double = [name](const TrialRow& r) { return r.result.metrics.Get(name); };
    col.set_double = [name](TrialRow& r, double v) {
      if (!std::isnan(v)) r.result.metrics.Set(name, v);
    };
  } else {
    col.get_int = [name](const TrialRow& r) -> int64_t {
      const double v = r.result.metrics.Get(name);
      return std::isnan(v) ? -1 : static_cast<int64_t>(v);
    };
    col.set_int = [name](TrialRow& r, int64_t v) {
      if (v != -1) r.result.metrics.Set(name, static_cast<double>(v));
    };
  }
  return col;
}

#define PMOE_ROW(path) \
  [](TrialRow & row) -> auto& { return row.path; }

std::vector<Column> CoreColumns() {
  using T = ColumnType;
  return {
      IntColumn("cell_id", T::kU64, "hash of the cell's canonical key (/cells)", PMOE_ROW(cell_id)),
      IntColumn("trial", T::kI32, "trial index within the cell", PMOE_ROW(result.trial)),
      IntColumn("data_seed", T::kU64, "H(master, data parameters read, trial)",
                PMOE_ROW(result.seeds.data)),
      IntColumn("init_seed", T::kU64, "H(master, data seed, model parameters read)",
                PMOE_ROW(result.seeds.init)),
      IntColumn("status", T::kU8, "0 ok, 1 diverged, 2 infeasible, 3 error",
                PMOE_ROW(result.status)),
      IntColumn("success", T::kU8, "the sweep's success criterion held", PMOE_ROW(result.success)),
      DoubleColumn("test_acc", "test accuracy", PMOE_ROW(result.test_acc)),
      DoubleColumn("train_acc", "training accuracy", PMOE_ROW(result.train_acc)),
      DoubleColumn("train_loss", "mean loss on the training set", PMOE_ROW(result.train_loss)),
      IntColumn("epochs", T::kI32, "epochs trained", PMOE_ROW(result.epochs)),
      IntColumn("steps", T::kI64, "training steps of the model (a router phase apart)",
                PMOE_ROW(result.steps)),
      IntColumn("stop_reason", T::kU8,
                "why training stopped: 0 not trained, 1 zero_train_error, 2 epoch_cap, "
                "3 step_cap, 4 diverged, 5 stopping_rule",
                PMOE_ROW(result.stop)),
      IntColumn("zero_train_error", T::kU8, "training error is zero after training",
                PMOE_ROW(result.zero_train_error)),
  };
}

std::vector<Column> TailColumns() {
  std::vector<Column> columns = {
      DoubleColumn("data_ms", "data generation wall time", PMOE_ROW(result.data_ms), true),
      DoubleColumn("train_ms", "training wall time (router phase included)",
                   PMOE_ROW(result.train_ms), true),
      DoubleColumn("eval_ms", "evaluation wall time", PMOE_ROW(result.eval_ms), true),
      DoubleColumn("wall_ms", "trial wall time", PMOE_ROW(result.wall_ms), true),
  };
  Column message = Named("message", ColumnType::kString, "why the status is not ok");
  message.get_text = [](const TrialRow& r) { return r.result.message; };
  message.set_text = [](TrialRow& r, const std::string& v) { r.result.message = v; };
  columns.push_back(message);
  return columns;
}

#undef PMOE_ROW

template <typename T>
void Put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
bool Take(const char* data, size_t size, size_t* offset, T* value) {
  if (*offset > size || size - *offset < sizeof(T)) return false;
  std::memcpy(value, data + *offset, sizeof(T));
  *offset += sizeof(T);
  return true;
}

}  // namespace

RowSchema::RowSchema(const std::vector<MetricInfo>& metrics, int classes) {
  columns_ = CoreColumns();
  for (int c = 0; c < classes; ++c) columns_.push_back(ClassCountColumn(c));
  for (const MetricInfo& m : metrics) columns_.push_back(MetricColumn(m));
  for (Column& c : TailColumns()) columns_.push_back(std::move(c));
}

std::string RowSchema::Text() const {
  std::string text;
  for (const Column& c : columns_)
    text += (text.empty() ? "" : ",") + c.name + ":" + ColumnTypeName(c.type);
  return text;
}

void RowSchema::Encode(const TrialRow& row, std::string& out) const {
  for (const Column& c : columns_) {
    if (c.type == ColumnType::kF64) {
      Put(out, c.get_double(row));
    } else if (c.type == ColumnType::kString) {
      const std::string text = c.get_text(row);
      Put(out, static_cast<uint32_t>(text.size()));
      out += text;
    } else if (c.type == ColumnType::kF64List) {
      const std::vector<double>& values = c.get_list(row);
      Put(out, static_cast<uint32_t>(values.size()));
      for (double v : values) Put(out, v);
    } else {
      Put(out, c.get_int(row));
    }
  }
}

bool RowSchema::Decode(const char* data, size_t size, size_t* offset, TrialRow& row) const {
  for (const Column& c : columns_) {
    if (c.type == ColumnType::kF64) {
      double v;
      if (!Take(data, size, offset, &v)) return false;
      c.set_double(row, v);
    } else if (c.type == ColumnType::kString) {
      uint32_t length;
      if (!Take(data, size, offset, &length) || size - *offset < length) return false;
      c.set_text(row, std::string(data + *offset, length));
      *offset += length;
    } else if (c.type == ColumnType::kF64List) {
      uint32_t length;
      if (!Take(data, size, offset, &length) || (size - *offset) / sizeof(double) < length)
        return false;
      std::vector<double> values(length);
      for (double& v : values) Take(data, size, offset, &v);
      c.set_list(row, std::move(values));
    } else {
      int64_t v;
      if (!Take(data, size, offset, &v)) return false;
      c.set_int(row, v);
    }
  }
  return true;
}

bool RowSchema::SameOutcome(const TrialRow& a, const TrialRow& b) const {
  for (const Column& c : columns_) {
    if (c.timing) continue;
    if (c.type == ColumnType::kF64) {
      const double x = c.get_double(a), y = c.get_double(b);
      if (std::memcmp(&x, &y, sizeof x) != 0) return false;  // bits, NaN included
    } else if (c.type == ColumnType::kString) {
      if (c.get_text(a) != c.get_text(b)) return false;
    } else if (c.type == ColumnType::kF64List) {
      const std::vector<double>&x = c.get_list(a), &y = c.get_list(b);
      if (x.size() != y.size() ||
          (!x.empty() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0))
        return false;
    } else if (c.get_int(a) != c.get_int(b)) {
      return false;
    }
  }
  return true;
}

RowSchema RowSchemaFromText(const std::string& text, const std::string& where,
                            const std::function<void(MetricInfo&)>& describe) {
  const RowSchema core({}, 0);
  int classes = 0;
  std::vector<MetricInfo> metrics;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    const size_t colon = item.rfind(':');
    std::optional<ColumnType> type;
    for (ColumnType t : {ColumnType::kU64, ColumnType::kI64, ColumnType::kI32, ColumnType::kU8,
                         ColumnType::kF64, ColumnType::kString, ColumnType::kF64List})
      if (colon != std::string::npos && item.substr(colon + 1) == ColumnTypeName(t)) type = t;
    if (!type) throw SchemaError(where + ": a column this tool cannot read: \"" + item + "\"");
    const std::string name = item.substr(0, colon);
    bool is_core = false;
    for (const Column& c : core.columns()) is_core = is_core || c.name == name;
    if (is_core) continue;
    if (name == "train_count_" + std::to_string(classes)) {
      ++classes;
      continue;
    }
    MetricInfo m;
    m.name = name;
    m.type = *type;
    if (describe) describe(m);
    metrics.push_back(m);
  }
  RowSchema schema(metrics, classes);
  if (schema.Text() != text) throw SchemaError(where + ": columns this tool cannot read: " + text);
  return schema;
}

}  // namespace pmoe
