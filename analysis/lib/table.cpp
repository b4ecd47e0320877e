// Table printing. JSON is an array of objects keyed by column, non-finite numbers as null.
#include "pmoe/analysis/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pmoe/core/param_table.hpp"
#include "pmoe/io/json_writer.hpp"

namespace pmoe {
namespace {

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Characters on screen, not bytes: a UTF-8 continuation byte ("±" is two bytes) adds none.
size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

}  // namespace

TableValue TableValue::Text(std::string text) { return {std::move(text), 0, false}; }

TableValue TableValue::Number(double value, int precision) {
  TableValue v;
  v.number = value;
  v.numeric = true;
  if (std::isnan(value)) {
    v.text = "-";
  } else if (std::isinf(value)) {
    v.text = value > 0 ? "inf" : "-inf";
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    v.text = buf;
  }
  return v;
}

void Table::Print(std::ostream& out, Format format) const {
  if (format == Format::kJson) {
    JsonWriter json(out);
    json.BeginArray();
    for (const auto& row : rows_) {
      json.BeginObject();
      for (size_t c = 0; c < columns_.size() && c < row.size(); ++c) {
        json.Key(columns_[c]);
        if (row[c].numeric)
          json.Value(row[c].number);
        else
          json.Value(row[c].text);
      }
      json.EndObject();
    }
    json.EndArray();
    out << "\n";
    return;
  }
  if (format == Format::kCsv) {
    for (size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << CsvField(columns_[c]);
    out << "\n";
    for (const auto& row : rows_) {
      for (size_t c = 0; c < row.size(); ++c) {
        const TableValue& v = row[c];
        const std::string text = !v.numeric                ? v.text
                                 : std::isfinite(v.number) ? FormatDouble(v.number)
                                 : std::isnan(v.number)    ? ""
                                                           : v.text;
        out << (c ? "," : "") << CsvField(text);
      }
      out << "\n";
    }
    return;
  }
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) width[c] = DisplayWidth(columns_[c]);
  for (const auto& row : rows_)
    for (size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], DisplayWidth(row[c].text));
  auto line = [&](auto cell) {
    std::string text;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const auto [value, right] = cell(c);
      const std::string pad(width[c] - DisplayWidth(value), ' ');
      text += (c ? "  " : "") + (right ? pad + value : value + pad);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  line([&](size_t c) { return std::pair<std::string, bool>{columns_[c], c > 0}; });
  for (const auto& row : rows_)
    line([&](size_t c) {
      return std::pair<std::string, bool>{c < row.size() ? row[c].text : "",
                                          c < row.size() && row[c].numeric};
    });
}

}  // namespace pmoe
