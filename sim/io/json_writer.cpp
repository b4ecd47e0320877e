// JSON output for --json modes and machine-readable tables.
#include "pmoe/io/json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "pmoe/core/param_table.hpp"

namespace pmoe {

namespace {

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the byte there starts none.
size_t Utf8Length(const std::string& text, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  if (c >= 0xE0 && c <= 0xEF) n = 3;
  if (c >= 0xF0 && c <= 0xF4) n = 4;
  if (c == 0xE0) low = 0xA0;   // overlong
  if (c == 0xED) high = 0x9F;  // a surrogate
  if (c == 0xF0) low = 0x90;   // overlong
  if (c == 0xF4) high = 0x8F;  // above U+10FFFF
  if (n == 0 || i + n > text.size() || at(i + 1) < low || at(i + 1) > high) return 0;
  for (size_t k = 2; k < n; ++k)
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

// A byte that is not part of valid UTF-8 (a path is bytes, not text) is written \udcXX, as
// Python's surrogateescape reads it back (os.fsencode gives the very bytes): the output stays
// valid JSON whatever a path holds (issue 44).
std::string JsonEscape(const std::string& text) {
  std::string out = "\"";
  char buf[8];
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c >= 0x80) {
      if (const size_t n = Utf8Length(text, i); n > 0) {
        out.append(text, i, n);
        i += n;
        continue;
      }
      std::snprintf(buf, sizeof buf, "\\udc%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
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
