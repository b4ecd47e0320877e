// The stored fields of a trial, in one table (schema version 1, DESIGN.md).
#include "pmoe/sweep/trial_row.hpp"

#include <cmath>
#include <cstring>

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

#define PMOE_ROW(path) [](TrialRow& row) -> auto& { return row.path; }

std::vector<Column> BuildColumns() {
  using T = ColumnType;
  std::vector<Column> columns = {
      IntColumn("cell_id", T::kU64, "hash of the cell's canonical key (/cells)", PMOE_ROW(cell_id)),
      IntColumn("trial", T::kI32, "trial index within the cell", PMOE_ROW(result.trial)),
      IntColumn("data_seed", T::kU64, "H(master, data parameters, trial)",
                PMOE_ROW(result.seeds.data)),
      IntColumn("init_seed", T::kU64, "H(master, data seed, model parameters)",
                PMOE_ROW(result.seeds.init)),
      IntColumn("status", T::kU8, "0 ok, 1 diverged, 2 infeasible", PMOE_ROW(result.status)),
      IntColumn("success", T::kU8, "the sweep's success criterion held", PMOE_ROW(result.success)),
      DoubleColumn("test_acc", "test accuracy", PMOE_ROW(result.test_acc)),
      DoubleColumn("train_acc", "training accuracy", PMOE_ROW(result.train_acc)),
      DoubleColumn("train_loss", "mean logistic loss on the training set",
                   PMOE_ROW(result.train_loss)),
      IntColumn("epochs", T::kI32, "epochs trained", PMOE_ROW(result.epochs)),
      IntColumn("steps", T::kI64, "SGD steps of the expert/model phase", PMOE_ROW(result.steps)),
      IntColumn("router_steps", T::kI64, "SGD steps of the separate router phase",
                PMOE_ROW(result.router_steps)),
      IntColumn("zero_train_error", T::kU8, "training error is zero after training",
                PMOE_ROW(result.zero_train_error)),
      DoubleColumn("router_hit", "separate: Lemma 4.1 hit rate; joint: Assumption 4.4 rate",
                   PMOE_ROW(result.router_hit)),
      DoubleColumn("router_hit_pos", "router_hit over y = +1 test samples",
                   PMOE_ROW(result.router_hit_pos)),
      DoubleColumn("router_hit_neg", "router_hit over y = -1 test samples",
                   PMOE_ROW(result.router_hit_neg)),
      DoubleColumn("realized_delta_d", "realized <o1, o2>", PMOE_ROW(result.realized.delta_d)),
      DoubleColumn("realized_delta_r", "realized max |<o_a, q>| over irrelevant patches",
                   PMOE_ROW(result.realized.delta_r)),
      IntColumn("realized_l_star", T::kI32, "1 + most delta'-closer patches in a sample",
                PMOE_ROW(result.realized.l_star)),
      DoubleColumn("realized_delta", "1 / (1 - max(delta_d, delta_r))",
                   PMOE_ROW(result.realized.delta)),
      IntColumn("confusers_outrank", T::kU8, "every delta'-closer patch outranks o1/o2",
                PMOE_ROW(result.realized.confusers_outrank)),
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

const std::vector<Column>& TrialColumns() {
  static const std::vector<Column> columns = BuildColumns();
  return columns;
}

void EncodeRow(const TrialRow& row, std::string& out) {
  for (const Column& c : TrialColumns()) {
    if (c.type == ColumnType::kF64) {
      Put(out, c.get_double(row));
    } else if (c.type == ColumnType::kString) {
      const std::string text = c.get_text(row);
      Put(out, static_cast<uint32_t>(text.size()));
      out += text;
    } else {
      Put(out, c.get_int(row));
    }
  }
}

bool DecodeRow(const char* data, size_t size, size_t* offset, TrialRow& row) {
  for (const Column& c : TrialColumns()) {
    if (c.type == ColumnType::kF64) {
      double v;
      if (!Take(data, size, offset, &v)) return false;
      c.set_double(row, v);
    } else if (c.type == ColumnType::kString) {
      uint32_t length;
      if (!Take(data, size, offset, &length) || size - *offset < length) return false;
      c.set_text(row, std::string(data + *offset, length));
      *offset += length;
    } else {
      int64_t v;
      if (!Take(data, size, offset, &v)) return false;
      c.set_int(row, v);
    }
  }
  return true;
}

bool SameOutcome(const TrialRow& a, const TrialRow& b) {
  for (const Column& c : TrialColumns()) {
    if (c.timing) continue;
    if (c.type == ColumnType::kF64) {
      const double x = c.get_double(a), y = c.get_double(b);
      if (std::memcmp(&x, &y, sizeof x) != 0) return false;  // bits, NaN included
    } else if (c.type == ColumnType::kString) {
      if (c.get_text(a) != c.get_text(b)) return false;
    } else if (c.get_int(a) != c.get_int(b)) {
      return false;
    }
  }
  return true;
}

}  // namespace pmoe
