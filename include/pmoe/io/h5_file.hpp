// A small RAII layer over the HDF5 C API for what the result files need: groups, 1-D columns of
// numbers or strings, and scalar attributes. Errors throw SchemaError naming the file and object.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmoe {

class H5File {
 public:
  static H5File Create(const std::string& path);  // truncates an existing file
  // A file held in memory only (HDF5's core driver): HDF5 never touches the disk, so a full
  // disk cannot leave the library half-closed; Image() gives the bytes to write. `name` is
  // used in messages.
  static H5File CreateInMemory(const std::string& name);
  static H5File OpenReadOnly(const std::string& path);
  H5File(H5File&& other) noexcept;
  H5File& operator=(H5File&&) = delete;
  ~H5File();

  // Closes now and throws if HDF5 could not finish the file (the destructor only tries).
  void Close();
  // The complete file as bytes (flushed first), ready to be written as an HDF5 file.
  std::vector<char> Image() const;

  const std::string& path() const { return path_; }

  void CreateGroup(const std::string& name);
  bool Exists(const std::string& name) const;
  std::vector<std::string> List(const std::string& group) const;  // member names

  // Scalar attributes on the object `object` ("/" for the root).
  void SetAttribute(const std::string& object, const std::string& name, const std::string& value);
  void SetAttribute(const std::string& object, const std::string& name, int64_t value);
  std::optional<std::string> StringAttribute(const std::string& object,
                                             const std::string& name) const;
  std::optional<int64_t> IntAttribute(const std::string& object, const std::string& name) const;

  // 1-D chunked columns. T is uint64_t, int64_t, int32_t, uint8_t or double.
  template <typename T>
  void WriteColumn(const std::string& name, const std::vector<T>& values);
  void WriteStrings(const std::string& name, const std::vector<std::string>& values);
  template <typename T>
  std::vector<T> ReadColumn(const std::string& name) const;
  std::vector<std::string> ReadStrings(const std::string& name) const;
  // HDF5 type class and size of a column, to read it in its own type.
  bool IsStringColumn(const std::string& name) const;
  // The stored type of a column as trial_columns names types: "u8", "i32", "i64", "u64", "f64",
  // "string" (other widths alike: "f32", "i16"; "another type" for the rest).
  std::string StoredTypeName(const std::string& name) const;

 private:
  H5File(hid_t id, std::string path) : id_(id), path_(std::move(path)) {}
  [[noreturn]] void Fail(const std::string& what) const;
  // The rows of a 1-D dataset; SchemaError for any other rank or an implausible extent.
  hsize_t ColumnRows(hid_t set, const std::string& name) const;
  void RequireScalar(hid_t attr, const std::string& object, const std::string& name) const;
  static constexpr hsize_t kMaxColumnRows = hsize_t{1} << 31;

  hid_t id_ = -1;
  std::string path_;
};

}  // namespace pmoe
