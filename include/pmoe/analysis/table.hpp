// A table of results printed three ways: aligned columns for people, CSV and JSON for scripts.
// Numbers keep their full value in CSV/JSON and a rounded form in the aligned view.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pmoe {

struct TableValue {
  std::string text;   // what the aligned view shows
  double number = 0;  // the value for CSV/JSON when numeric
  bool numeric = false;

  static TableValue Text(std::string text);
  // `precision` significant digits in the aligned view; NaN prints "-", inf "inf".
  static TableValue Number(double value, int precision = 4);
};

class Table {
 public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void Add(std::vector<TableValue> row) { rows_.push_back(std::move(row)); }

  enum class Format { kAligned, kCsv, kJson };
  void Print(std::ostream& out, Format format) const;

  const std::vector<std::string>& columns() const { return columns_; }
  // The same rows with only the columns at these indices, in this order.
  Table Select(const std::vector<size_t>& keep) const {
    std::vector<std::string> names;
    for (size_t i : keep) names.push_back(columns_[i]);
    Table out(names);
    for (const auto& row : rows_) {
      std::vector<TableValue> r;
      for (size_t i : keep) r.push_back(row[i]);
      out.Add(std::move(r));
    }
    return out;
  }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<TableValue>> rows_;
};

}  // namespace pmoe
