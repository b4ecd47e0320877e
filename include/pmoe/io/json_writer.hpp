// A minimal streaming JSON writer: objects, arrays, strings, numbers (NaN and inf become null).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace pmoe {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(const std::string& key);
  JsonWriter& Value(const std::string& value);
  JsonWriter& Value(const char* value) { return Value(std::string(value)); }
  JsonWriter& Value(double value);
  JsonWriter& Value(long long value);
  JsonWriter& Value(unsigned long long value);
  JsonWriter& Value(int value) { return Value(static_cast<long long>(value)); }
  JsonWriter& Value(long value) { return Value(static_cast<long long>(value)); }
  JsonWriter& Value(unsigned long value) { return Value(static_cast<unsigned long long>(value)); }
  JsonWriter& Value(bool value);

  template <typename T>
  JsonWriter& Field(const std::string& key, const T& value) {
    return Key(key).Value(value);
  }

 private:
  void Separate();  // the comma before every element but the first of its container

  std::ostream& out_;
  std::vector<bool> first_;  // per open container: nothing written into it yet
  bool after_key_ = false;
};

// `text` as a JSON string; bytes that are not UTF-8 as \udcXX (Python's surrogateescape).
std::string JsonEscape(const std::string& text);

}  // namespace pmoe
