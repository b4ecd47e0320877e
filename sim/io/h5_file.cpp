// HDF5 file access with the library's own error printing turned off: every failure becomes a
// SchemaError that says which file and which object.
#include "pmoe/io/h5_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <type_traits>

#include "h5_vlen_guard.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/io/file_kind.hpp"

namespace pmoe {
namespace {

// Turns HDF5's automatic error stack printing off once per process.
void Quiet() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

// Closes an HDF5 handle of any kind when it goes out of scope.
class Handle {
 public:
  explicit Handle(hid_t id) : id_(id) {}
  ~Handle() {
    if (id_ >= 0) H5Idec_ref(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
};

template <typename T>
hid_t MemoryType();
template <>
hid_t MemoryType<uint64_t>() {
  return H5T_NATIVE_UINT64;
}
template <>
hid_t MemoryType<int64_t>() {
  return H5T_NATIVE_INT64;
}
template <>
hid_t MemoryType<int32_t>() {
  return H5T_NATIVE_INT32;
}
template <>
hid_t MemoryType<uint8_t>() {
  return H5T_NATIVE_UINT8;
}
template <>
hid_t MemoryType<double>() {
  return H5T_NATIVE_DOUBLE;
}

template <typename T>
hid_t FileType();
template <>
hid_t FileType<uint64_t>() {
  return H5T_STD_U64LE;
}
template <>
hid_t FileType<int64_t>() {
  return H5T_STD_I64LE;
}
template <>
hid_t FileType<int32_t>() {
  return H5T_STD_I32LE;
}
template <>
hid_t FileType<uint8_t>() {
  return H5T_STD_U8LE;
}
template <>
hid_t FileType<double>() {
  return H5T_IEEE_F64LE;
}

hid_t StringType() {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

// A value that does not fit the type it is read into (an int64 of 300 read as uint8, -1 as
// unsigned) fails the read instead of being clipped by HDF5 into some other, valid-looking value.
H5T_conv_ret_t RefuseOutOfRange(H5T_conv_except_t except, hid_t, hid_t, void*, void*, void*) {
  return except == H5T_CONV_EXCEPT_PRECISION ? H5T_CONV_UNHANDLED : H5T_CONV_ABORT;
}

// Whether another process holds `path` open for writing: HDF5 takes an exclusive flock on a
// file it opens for writing, which a shared lock here cannot then get.
bool HeldForWriting(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

// A chunked, extendible 1-D dataset creation property list for `rows` rows.
hid_t ColumnProperties(hsize_t rows) {
  hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  const hsize_t chunk = std::clamp<hsize_t>(rows, 1, 65536);
  H5Pset_chunk(plist, 1, &chunk);
  return plist;
}

}  // namespace

H5File H5File::Create(const std::string& path) {
  Quiet();
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw SchemaError(path + ": cannot create the HDF5 file");
  return H5File(id, path);
}

H5File H5File::CreateInMemory(const std::string& name) {
  Quiet();
  Handle access(H5Pcreate(H5P_FILE_ACCESS));
  const size_t growth = size_t{1} << 20;  // the image grows in steps of 1 MiB
  if (!access.ok() || H5Pset_fapl_core(access.get(), growth, /*backing_store=*/0) < 0)
    throw SchemaError(name + ": cannot set up an in-memory HDF5 file");
  const hid_t id = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
  if (id < 0) throw SchemaError(name + ": cannot create the in-memory HDF5 file");
  return H5File(id, name);
}

std::vector<char> H5File::Image() const {
  if (H5Fflush(id_, H5F_SCOPE_GLOBAL) < 0) Fail("cannot flush the HDF5 file");
  const ssize_t size = H5Fget_file_image(id_, nullptr, 0);
  if (size < 0) Fail("cannot size the HDF5 file image");
  std::vector<char> bytes(static_cast<size_t>(size));
  if (H5Fget_file_image(id_, bytes.data(), bytes.size()) != size)
    Fail("cannot copy the HDF5 file image");
  return bytes;
}

H5File H5File::OpenReadOnly(const std::string& path) {
  Quiet();
  if (const std::string problem = InputFileProblem(path); !problem.empty())
    throw SchemaError(path + ": " + problem + " (expected an HDF5 result file)");
  // Not a damaged file: another program writes it now. Said as such (a ConfigError, not the
  // SchemaError of a damaged file), so that no tool suggests replacing it (--force would
  // destroy it).
  if (HeldForWriting(path))
    throw ConfigError(path +
                      ": another process holds this file open for writing (an HDF5 lock); "
                      "wait for it to finish or close it, then try again");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw SchemaError(path + ": not an HDF5 file");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw SchemaError(path + ": cannot open the HDF5 file");
  H5File file(id, path);
  if (const std::string problem = HeapCollectionsProblem(id, path); !problem.empty())
    throw SchemaError(path + ": " + problem + " (a damaged file)");
  return file;
}

H5File::H5File(H5File&& other) noexcept : id_(other.id_), path_(std::move(other.path_)) {
  other.id_ = -1;
}

H5File::~H5File() {
  if (id_ >= 0) H5Fclose(id_);
}

void H5File::Close() {
  const hid_t id = id_;
  id_ = -1;
  if (id >= 0 && H5Fclose(id) < 0) throw SchemaError(path_ + ": closing the HDF5 file failed");
}

void H5File::Fail(const std::string& what) const { throw SchemaError(path_ + ": " + what); }

void H5File::RequireScalar(hid_t attr, const std::string& object, const std::string& name) const {
  if (attr < 0) Fail("cannot open attribute " + name + " of " + object);
  Handle space(H5Aget_space(attr));
  // Read into one value: an attribute of several would overrun it.
  if (!space.ok() || H5Sget_simple_extent_npoints(space.get()) != 1)
    Fail("attribute " + name + " of " + object + " is not a single value");
}

void H5File::CreateGroup(const std::string& name) {
  Handle group(H5Gcreate2(id_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!group.ok()) Fail("cannot create group " + name);
}

bool H5File::Exists(const std::string& name) const {
  return H5Lexists(id_, name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> H5File::List(const std::string& group) const {
  Handle g(H5Gopen2(id_, group.c_str(), H5P_DEFAULT));
  if (!g.ok()) Fail("no group " + group);
  H5G_info_t info;
  H5Gget_info(g.get(), &info);
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[1024];
    H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    names.push_back(name);
  }
  return names;
}

void H5File::SetAttribute(const std::string& object, const std::string& name,
                          const std::string& value) {
  Handle type(StringType());
  Handle space(H5Screate(H5S_SCALAR));
  Handle attr(H5Acreate_by_name(id_, object.c_str(), name.c_str(), type.get(), space.get(),
                                H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  const char* text = value.c_str();
  if (!attr.ok() || H5Awrite(attr.get(), type.get(), &text) < 0)
    Fail("cannot write attribute " + name + " of " + object);
}

void H5File::SetAttribute(const std::string& object, const std::string& name, int64_t value) {
  Handle space(H5Screate(H5S_SCALAR));
  Handle attr(H5Acreate_by_name(id_, object.c_str(), name.c_str(), H5T_STD_I64LE, space.get(),
                                H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!attr.ok() || H5Awrite(attr.get(), H5T_NATIVE_INT64, &value) < 0)
    Fail("cannot write attribute " + name + " of " + object);
}

std::optional<std::string> H5File::StringAttribute(const std::string& object,
                                                   const std::string& name) const {
  if (H5Aexists_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
  Handle attr(H5Aopen_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  RequireScalar(attr.get(), object, name);
  Handle stored(H5Aget_type(attr.get()));
  if (H5Tget_class(stored.get()) != H5T_STRING || !H5Tis_variable_str(stored.get()))
    Fail("attribute " + name + " of " + object + " is not a variable-length string");
  Handle type(StringType());
  char* text = nullptr;
  if (H5Aread(attr.get(), type.get(), &text) < 0) Fail("cannot read attribute " + name);
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

std::optional<int64_t> H5File::IntAttribute(const std::string& object,
                                            const std::string& name) const {
  if (H5Aexists_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
  Handle attr(H5Aopen_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT));
  RequireScalar(attr.get(), object, name);
  Handle stored(H5Aget_type(attr.get()));
  if (H5Tget_class(stored.get()) != H5T_INTEGER)
    Fail("attribute " + name + " of " + object + " is not an integer");
  int64_t value = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_INT64, &value) < 0) Fail("cannot read attribute " + name);
  return value;
}

template <typename T>
void H5File::WriteColumn(const std::string& name, const std::vector<T>& values) {
  const hsize_t rows = values.size(), unlimited = H5S_UNLIMITED;
  Handle space(H5Screate_simple(1, &rows, &unlimited));
  Handle plist(ColumnProperties(rows));
  Handle set(H5Dcreate2(id_, name.c_str(), FileType<T>(), space.get(), H5P_DEFAULT, plist.get(),
                        H5P_DEFAULT));
  if (!set.ok() || (rows > 0 && H5Dwrite(set.get(), MemoryType<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                         values.data()) < 0))
    Fail("cannot write column " + name);
}

void H5File::WriteStrings(const std::string& name, const std::vector<std::string>& values) {
  const hsize_t rows = values.size(), unlimited = H5S_UNLIMITED;
  Handle type(StringType());
  Handle space(H5Screate_simple(1, &rows, &unlimited));
  Handle plist(ColumnProperties(rows));
  Handle set(H5Dcreate2(id_, name.c_str(), type.get(), space.get(), H5P_DEFAULT, plist.get(),
                        H5P_DEFAULT));
  std::vector<const char*> pointers;
  for (const auto& v : values) pointers.push_back(v.c_str());
  if (!set.ok() || (rows > 0 && H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                         pointers.data()) < 0))
    Fail("cannot write column " + name);
}

hsize_t H5File::ColumnRows(hid_t set, const std::string& name) const {
  Handle space(H5Dget_space(set));
  if (!space.ok() || H5Sget_simple_extent_ndims(space.get()) != 1)
    Fail(name + " is not a 1-D column (expected one value per row)");
  hsize_t rows = 0;
  if (H5Sget_simple_extent_dims(space.get(), &rows, nullptr) != 1)
    Fail("cannot read the size of " + name);
  // A dataset's extent costs nothing to declare: a damaged or hostile file may claim more rows
  // than it stores (unwritten chunks read as fill values). Refused before allocating.
  Handle stored(H5Dget_type(set));
  const size_t stored_bytes = std::max<size_t>(H5Tget_size(stored.get()), 1);
  const hsize_t storage = H5Dget_storage_size(set);
  // A compressed column (h5repack -f GZIP) may store less than a row each: then its extent is
  // bounded by memory instead.
  Handle create(H5Dget_create_plist(set));
  const bool filtered = create.ok() && H5Pget_nfilters(create.get()) > 0;
  const double memory = PhysicalMemoryBytes();
  const bool too_many =
      rows > kMaxColumnRows || (!filtered && rows > 0 && storage / stored_bytes < rows) ||
      (filtered && memory > 0 && static_cast<double>(rows) * stored_bytes > 0.25 * memory);
  if (too_many)
    Fail(name + " claims " + std::to_string(rows) + " rows but stores " + std::to_string(storage) +
         " bytes (" + std::to_string(stored_bytes) + " per row expected): a damaged file");
  return rows;
}

template <typename T>
std::vector<T> H5File::ReadColumn(const std::string& name) const {
  Handle set(H5Dopen2(id_, name.c_str(), H5P_DEFAULT));
  if (!set.ok()) Fail("no column " + name);
  {
    Handle stored(H5Dget_type(set.get()));
    const H5T_class_t type_class = H5Tget_class(stored.get());
    // Integers read as integers; doubles from floats or integers (HDF5 converts them).
    const bool fits =
        type_class == H5T_INTEGER || (std::is_floating_point_v<T> && type_class == H5T_FLOAT);
    if (!fits)
      Fail(name + " holds " + (type_class == H5T_STRING ? "text" : "values of another type") +
           " (expected " + (std::is_floating_point_v<T> ? "numbers" : "integers") + ")");
  }
  const hsize_t rows = ColumnRows(set.get(), name);
  std::vector<T> values(rows);
  Handle transfer(H5Pcreate(H5P_DATASET_XFER));
  H5Pset_type_conv_cb(transfer.get(), RefuseOutOfRange, nullptr);
  if (rows > 0 &&
      H5Dread(set.get(), MemoryType<T>(), H5S_ALL, H5S_ALL, transfer.get(), values.data()) < 0)
    Fail("cannot read column " + name + " as " +
         (std::is_floating_point_v<T> ? std::string("numbers")
                                      : "integers of " + std::to_string(sizeof(T) * 8) +
                                            " bits (a value out of range, or a damaged column)"));
  return values;
}

std::vector<std::string> H5File::ReadStrings(const std::string& name) const {
  Handle set(H5Dopen2(id_, name.c_str(), H5P_DEFAULT));
  if (!set.ok()) Fail("no column " + name);
  {
    Handle stored(H5Dget_type(set.get()));
    if (H5Tget_class(stored.get()) != H5T_STRING || H5Tis_variable_str(stored.get()) <= 0)
      Fail(name + " is not a column of variable-length strings");
  }
  // Checked first: a 2-D column read into a 1-D buffer overran it (a double free).
  const hsize_t rows = ColumnRows(set.get(), name);
  // HDF5 follows each string's heap reference unchecked: a damaged one crashed the process.
  if (const std::string problem = VlenStringProblem(id_, set.get(), path_); !problem.empty())
    Fail(name + ": " + problem + " (a damaged file)");
  Handle type(StringType());
  std::vector<char*> pointers(rows, nullptr);
  if (rows > 0 &&
      H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0)
    Fail("cannot read column " + name + " as strings");
  std::vector<std::string> values;
  for (char* p : pointers) {
    values.emplace_back(p ? p : "");
    H5free_memory(p);
  }
  return values;
}

bool H5File::IsStringColumn(const std::string& name) const {
  Handle set(H5Dopen2(id_, name.c_str(), H5P_DEFAULT));
  if (!set.ok()) Fail("no column " + name);
  Handle type(H5Dget_type(set.get()));
  return H5Tget_class(type.get()) == H5T_STRING;
}

std::string H5File::StoredTypeName(const std::string& name) const {
  Handle set(H5Dopen2(id_, name.c_str(), H5P_DEFAULT));
  if (!set.ok()) Fail("no column " + name);
  Handle type(H5Dget_type(set.get()));
  const std::string bits = std::to_string(H5Tget_size(type.get()) * 8);
  switch (H5Tget_class(type.get())) {
    case H5T_STRING:
      return "string";
    case H5T_FLOAT:
      return "f" + bits;
    case H5T_INTEGER:
      return (H5Tget_sign(type.get()) == H5T_SGN_NONE ? "u" : "i") + bits;
    default:
      return "another type";
  }
}

template void H5File::WriteColumn(const std::string&, const std::vector<uint64_t>&);
template void H5File::WriteColumn(const std::string&, const std::vector<int64_t>&);
template void H5File::WriteColumn(const std::string&, const std::vector<int32_t>&);
template void H5File::WriteColumn(const std::string&, const std::vector<uint8_t>&);
template void H5File::WriteColumn(const std::string&, const std::vector<double>&);
template std::vector<uint64_t> H5File::ReadColumn(const std::string&) const;
template std::vector<int64_t> H5File::ReadColumn(const std::string&) const;
template std::vector<int32_t> H5File::ReadColumn(const std::string&) const;
template std::vector<uint8_t> H5File::ReadColumn(const std::string&) const;
template std::vector<double> H5File::ReadColumn(const std::string&) const;

}  // namespace pmoe
