// The names of the metric column types.
#include "pmoe/core/metrics.hpp"

namespace pmoe {

const char* ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kU64:
      return "u64";
    case ColumnType::kI64:
      return "i64";
    case ColumnType::kI32:
      return "i32";
    case ColumnType::kU8:
      return "u8";
    case ColumnType::kF64:
      return "f64";
    case ColumnType::kString:
      return "string";
    case ColumnType::kF64List:
      return "f64list";
  }
  return "?";
}

}  // namespace pmoe
