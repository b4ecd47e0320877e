// JSON output for --json modes and machine-readable tables.
#include "pmoe/io/json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "pmoe/core/param_table.hpp"

namespace pmoe {

std::string JsonEscape(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

void JsonWriter::Separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::BeginObject() {
  Separate();
  out_ << '{';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  first_.pop_back();
  out_ << '}';
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  Separate();
  out_ << '[';
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  first_.pop_back();
  out_ << ']';
  return *this;
}

JsonWriter& JsonWriter::Key(const std::string& key) {
  Separate();
  out_ << JsonEscape(key) << ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::Value(const std::string& value) {
  Separate();
  out_ << JsonEscape(value);
  return *this;
}

JsonWriter& JsonWriter::Value(double value) {
  Separate();
  if (std::isfinite(value))
    out_ << FormatDouble(value);
  else
    out_ << "null";
  return *this;
}

JsonWriter& JsonWriter::Value(long long value) {
  Separate();
  out_ << value;
  return *this;
}

JsonWriter& JsonWriter::Value(unsigned long long value) {
  Separate();
  out_ << value;
  return *this;
}

JsonWriter& JsonWriter::Value(bool value) {
  Separate();
  out_ << (value ? "true" : "false");
  return *this;
}

}  // namespace pmoe
