// A finished trial as the sweep engine stores it: the TrialResult and its cell. A sweep's row
// schema is the one list of stored fields: the core columns, one count per class, the metrics its
// cells' families declare, the timings and the message. The journal's binary records and the
// HDF5 /trials columns are both written and read from it, in its order, and the journal's
// identity lists it, so rows are never decoded with another schema.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pmoe/core/metrics.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {

struct TrialRow {
  uint64_t cell_id = 0;
  TrialResult result;
};

// One stored field. Numbers travel as int64 or double; strings as text; a list metric as its
// length and its values (doubles).
struct Column {
  std::string name;
  ColumnType type = ColumnType::kF64;
  std::string description;  // stored as the dataset's "description" attribute
  bool rate = false;        // a declared metric that is a rate (stored as attribute "rate")
  bool metric = false;      // declared by a family (stored as attribute "metric")
  std::function<int64_t(const TrialRow&)> get_int;       // integer types (u64 as bits)
  std::function<double(const TrialRow&)> get_double;     // kF64
  std::function<std::string(const TrialRow&)> get_text;  // kString
  std::function<void(TrialRow&, int64_t)> set_int;
  std::function<void(TrialRow&, double)> set_double;
  std::function<void(TrialRow&, const std::string&)> set_text;
  std::function<const std::vector<double>&(const TrialRow&)> get_list;  // kF64List
  std::function<void(TrialRow&, std::vector<double>)> set_list;
  bool timing = false;  // wall-clock measurements: the only fields allowed to differ between runs
};

class RowSchema {
 public:
  // The core columns, train_count_0..classes-1, the given metrics, timings, message.
  RowSchema(const std::vector<MetricInfo>& metrics, int classes);
  RowSchema() : RowSchema({}, 0) {}  // the core columns only

  const std::vector<Column>& columns() const { return columns_; }
  // "name:type,name:type,...": what the journal's identity records.
  std::string Text() const;

  // Binary encoding of a row in column order (little-endian, strings length-prefixed).
  void Encode(const TrialRow& row, std::string& out) const;
  // Decodes one row from data[*offset..size); false if the bytes end early or are malformed.
  bool Decode(const char* data, size_t size, size_t* offset, TrialRow& row) const;
  // Equal in every stored field except the timings.
  bool SameOutcome(const TrialRow& a, const TrialRow& b) const;

 private:
  std::vector<Column> columns_;
};

// The schema whose Text() is `text` ("name:type,..."), read by name: the core columns, the class
// counts, then metrics, each given to `describe` (which may fill its help and rate flag).
// SchemaError naming `where` and the entry when a type is unknown or the list is not one this
// tool writes.
RowSchema RowSchemaFromText(const std::string& text, const std::string& where,
                            const std::function<void(MetricInfo&)>& describe = {});

}  // namespace pmoe
