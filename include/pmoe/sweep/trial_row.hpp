// A finished trial as the sweep engine stores it: the TrialResult and its cell. The column table
// below is the one list of stored fields: the journal's binary records and the HDF5 /trials
// columns are both written and read from it, in its order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pmoe/trial/trial.hpp"

namespace pmoe {

struct TrialRow {
  uint64_t cell_id = 0;
  TrialResult result;
};

enum class ColumnType { kU64, kI64, kI32, kU8, kF64, kString };

// One stored field. Numbers travel as int64 or double; strings as text.
struct Column {
  std::string name;
  ColumnType type = ColumnType::kF64;
  std::string description;  // stored as the dataset's "description" attribute
  std::function<int64_t(const TrialRow&)> get_int;        // integer types (u64 as bits)
  std::function<double(const TrialRow&)> get_double;      // kF64
  std::function<std::string(const TrialRow&)> get_text;   // kString
  std::function<void(TrialRow&, int64_t)> set_int;
  std::function<void(TrialRow&, double)> set_double;
  std::function<void(TrialRow&, const std::string&)> set_text;
  bool timing = false;  // wall-clock measurements: the only fields allowed to differ between runs
};

const std::vector<Column>& TrialColumns();

// Binary encoding of a row in column order (little-endian, strings length-prefixed).
void EncodeRow(const TrialRow& row, std::string& out);
// Decodes one row from data[*offset..size); false if the bytes end early or are malformed.
bool DecodeRow(const char* data, size_t size, size_t* offset, TrialRow& row);

// Equal in every stored field except the timings.
bool SameOutcome(const TrialRow& a, const TrialRow& b);

}  // namespace pmoe
