// The three kinds of trouble (STYLE.md §7): bad user input (ConfigError, exit status 2), a data
// model whose parameters admit no placement (InfeasibleError), and broken invariants (PMOE_CHECK).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace pmoe {

// Bad input: names where (file or command line), the key, the value found and what was expected.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& where, const std::string& key, const std::string& expected,
              const std::string& found)
      : std::runtime_error(Format(where, key, expected, found)) {}
  explicit ConfigError(const std::string& message) : std::runtime_error(message) {}

 private:
  static std::string Format(const std::string& where, const std::string& key,
                            const std::string& expected, const std::string& found) {
    std::string prefix = where.empty() ? "" : where + ": ";
    return prefix + key + " = \"" + found + "\": expected " + expected;
  }
};

// The data model's parameters cannot be realized; the message names the violated inequality.
class InfeasibleError : public std::runtime_error {
 public:
  explicit InfeasibleError(const std::string& message) : std::runtime_error(message) {}
};

// A file (result file, IDX image file) that cannot be read as what it claims to be: names the
// file and what is wrong.
class SchemaError : public std::runtime_error {
 public:
  explicit SchemaError(const std::string& message) : std::runtime_error(message) {}
};

// The store could not write or read its files: names the path and the system's reason (no
// space, read-only, not a directory). A run stops cleanly on it; rerun once the cause is fixed.
class IoError : public std::runtime_error {
 public:
  explicit IoError(const std::string& message) : std::runtime_error(message) {}
};

namespace detail {
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition,
                              const std::string& message);

// Collects the streamed message of a failed PMOE_CHECK and aborts when it goes out of scope.
class CheckMessage {
 public:
  CheckMessage(const char* file, int line, const char* condition)
      : file_(file), line_(line), condition_(condition) {}
  [[noreturn]] ~CheckMessage() { CheckFailed(file_, line_, condition_, stream_.str()); }
  template <typename T>
  CheckMessage& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  const char* file_;
  int line_;
  const char* condition_;
  std::ostringstream stream_;
};
}  // namespace detail

}  // namespace pmoe

// A broken invariant is a bug: print file:line and the message, then abort.
#define PMOE_CHECK(condition) \
  if (condition) {            \
  } else                      \
    ::pmoe::detail::CheckMessage(__FILE__, __LINE__, #condition)
