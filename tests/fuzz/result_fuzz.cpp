// Fuzz target: the result-file reader. Fuzzing HDF5's own byte format would test the HDF5
// library, not us; instead the input is a script of edits, made through the HDF5 API, to a valid
// result file: values overwritten, columns replaced by others of any rank, type and extent,
// columns and attributes deleted, attributes rewritten with other types and shapes. The reader
// must return or throw SchemaError, and what it returns must hold: every row names a cell and a
// trial index of the file's sweep, at most once.
#include <hdf5.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "pmoe/analysis/results.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/io/result_checks.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/store/journal.hpp"
#include "pmoe/sweep/store/result_file.hpp"

namespace {

using namespace pmoe;

struct Template {
  std::string bytes;                  // a valid result file
  std::vector<std::string> datasets;  // its /cells and /trials columns
};

// Two cells of three trials, written by WriteResultFile once per process.
const Template& MakeTemplate() {
  static const Template t = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    const SweepConfig config = ParseSweepConfig(
        "t.ini", "trials = 3\nN = 20\nN_test = 20\n[model]\nm = 8\n[grid]\nmodel.l = 1,2\n");
    const std::vector<Cell> cells = ExpandGrid(config);
    const RowSchema schema({{"router_hit", ColumnType::kF64, "a rate", true}}, 2);
    std::vector<TrialRow> rows;
    for (const Cell& c : cells)
      for (int trial = 0; trial < 3; ++trial) {
        TrialRow r;
        r.cell_id = c.id;
        r.result.trial = trial;
        r.result.message = trial ? "" : "a message";
        r.result.class_counts = {10, 10};
        rows.push_back(r);
      }
    ResultMeta meta;
    meta.numerics_version = 7;
    meta.name = "t";
    meta.config = config.text;
    meta.trials_per_cell = 3;
    const std::string path = fuzz::ScratchPath("template.h5");
    WriteResultFile(path, meta, cells, schema, rows);
    Template out;
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    out.bytes = s.str();
    std::remove(path.c_str());
    for (const char* col : {"cell_id", "key", "label", "N", "model.l", "model.kind"})
      out.datasets.push_back(std::string("/cells/") + col);
    for (const Column& c : schema.columns()) out.datasets.push_back("/trials/" + c.name);
    return out;
  }();
  return t;
}

class Script {
 public:
  Script(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::string Bytes(size_t n) {
    n = std::min(n, size_ - std::min(at_, size_));
    std::string out(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return out;
  }
  template <typename T>
  T Value() {
    T v{};
    const std::string b = Bytes(sizeof(T));
    std::memcpy(&v, b.data(), b.size());
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

hid_t StringType() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  return t;
}

const char* kAttributes[] = {
    "schema_version", "numerics_version", "name",  "config",        "config_path",
    "master_seed",    "trials_per_cell",  "shard", "trial_columns", "created_utc"};

// A dataset of a fuzzed rank (1-3), extent, type and contents in place of `name`.
void Replace(hid_t file, const std::string& name, Script& in) {
  H5Ldelete(file, name.c_str(), H5P_DEFAULT);
  const int rank = 1 + in.Byte() % 3;
  std::vector<hsize_t> dims(rank), max(rank, H5S_UNLIMITED), chunk(rank, 4);
  size_t count = 1;
  for (int i = 0; i < rank; ++i) {
    dims[i] = in.Byte() % 17;
    count *= dims[i];
  }
  hid_t space = H5Screate_simple(rank, dims.data(), max.data());
  hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, rank, chunk.data());
  const uint8_t kind = in.Byte() % 7;
  const hid_t numeric[] = {H5T_NATIVE_UINT8, H5T_NATIVE_INT32, H5T_NATIVE_INT64, H5T_NATIVE_UINT64,
                           H5T_NATIVE_DOUBLE};
  hid_t type = kind < 5 ? H5Tcopy(numeric[kind]) : kind == 5 ? StringType() : H5Tcopy(H5T_C_S1);
  if (kind == 6) H5Tset_size(type, 8);  // fixed-length strings
  hid_t set = H5Dcreate2(file, name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
  if (set >= 0 && count > 0 && in.Byte() % 4 != 0) {  // else: left unwritten (fill values)
    if (kind == 5) {
      std::vector<std::string> text(count);
      std::vector<const char*> pointers(count);
      for (size_t i = 0; i < count; ++i) {
        text[i] = in.Bytes(in.Byte() % 8);
        pointers[i] = text[i].c_str();
      }
      H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data());
    } else {
      std::string bytes = in.Bytes(count * H5Tget_size(type));
      bytes.resize(count * H5Tget_size(type), '\0');
      H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
    }
  }
  if (set >= 0) H5Dclose(set);
  H5Tclose(type);
  H5Pclose(plist);
  H5Sclose(space);
}

void SetAttribute(hid_t object, const char* name, Script& in) {
  H5Adelete(object, name);
  const uint8_t kind = in.Byte() % 4;
  const hsize_t dims[2] = {static_cast<hsize_t>(1 + in.Byte() % 3), 2};
  hid_t space =
      kind < 2 ? H5Screate(H5S_SCALAR) : H5Screate_simple(kind == 2 ? 1 : 2, dims, nullptr);
  const bool text = in.Byte() & 1;
  hid_t type = text ? StringType() : H5Tcopy(H5T_NATIVE_INT64);
  hid_t attr = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (attr >= 0) {
    const hssize_t points = H5Sget_simple_extent_npoints(space);
    if (text) {
      std::vector<std::string> values(points);
      std::vector<const char*> pointers(points);
      for (hssize_t i = 0; i < points; ++i) {
        values[i] = in.Bytes(in.Byte() % 64);
        pointers[i] = values[i].c_str();
      }
      H5Awrite(attr, type, pointers.data());
    } else {
      std::vector<int64_t> values(points);
      for (auto& v : values) v = in.Value<int64_t>();
      H5Awrite(attr, type, values.data());
    }
    H5Aclose(attr);
  }
  H5Tclose(type);
  H5Sclose(space);
}

void Edit(const std::string& path, Script& in) {
  const Template& t = MakeTemplate();
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) return;
  for (int edits = 0; !in.empty() && edits < 16; ++edits) {
    const uint8_t op = in.Byte();
    const std::string& name = t.datasets[in.Byte() % t.datasets.size()];
    switch (op % 7) {
      case 0: {  // one value overwritten in place, in the column's own type
        hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
        if (set < 0) break;
        hid_t stored = H5Dget_type(set), space = H5Dget_space(set);
        hsize_t rows = 0;
        if (H5Sget_simple_extent_ndims(space) == 1 &&
            H5Sget_simple_extent_dims(space, &rows, nullptr) == 1 && rows > 0) {
          const hsize_t at = in.Byte() % rows, one = 1;
          H5Sselect_hyperslab(space, H5S_SELECT_SET, &at, nullptr, &one, nullptr);
          hid_t mem = H5Screate_simple(1, &one, nullptr);
          if (H5Tget_class(stored) == H5T_STRING) {
            hid_t type = StringType();
            const std::string text = in.Bytes(in.Byte() % 32);
            const char* p = text.c_str();
            H5Dwrite(set, type, mem, space, H5P_DEFAULT, &p);
            H5Tclose(type);
          } else {
            hid_t native = H5Tget_native_type(stored, H5T_DIR_DEFAULT);
            std::string bytes = in.Bytes(H5Tget_size(native));
            bytes.resize(H5Tget_size(native), '\0');
            H5Dwrite(set, native, mem, space, H5P_DEFAULT, bytes.data());
            H5Tclose(native);
          }
          H5Sclose(mem);
        }
        H5Sclose(space);
        H5Tclose(stored);
        H5Dclose(set);
        break;
      }
      case 1:
        Replace(file, name, in);
        break;
      case 2:
        H5Ldelete(file, name.c_str(), H5P_DEFAULT);
        break;
      case 3:
        SetAttribute(file, kAttributes[in.Byte() % 10], in);
        break;
      case 4:
        H5Adelete(file, kAttributes[in.Byte() % 10]);
        break;
      case 5: {  // the extent grown or shrunk without writing: fill values, or claimed rows
        hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
        if (set < 0) break;
        // Up to 2^16 rows: HDF5 walks every chunk of the old extent when shrinking (one row per
        // chunk in a small file), so larger claims make the harness slow, not the reader (the
        // unit tests claim 2^40).
        const hsize_t rows =
            in.Byte() & 0x80 ? hsize_t{1} << (10 + in.Byte() % 7) : hsize_t{in.Byte()};
        H5Dset_extent(set, &rows);
        H5Dclose(set);
        break;
      }
      case 6: {  // an attribute of a /trials column (metric, rate, description)
        hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
        if (set < 0) break;
        const char* names[] = {"metric", "rate", "description"};
        SetAttribute(set, names[in.Byte() % 3], in);
        H5Dclose(set);
        break;
      }
    }
  }
  H5Fclose(file);
}

// Bytes flipped where HDF5 trusts them most (issue 28): inside the global heap collections that
// hold the variable-length strings ("GCOL" and its objects' headers and data), and inside the
// raw references of the string columns' chunks (length, collection address, object index).
void FlipStringBytes(const std::string& path, Script& in) {
  if (in.empty()) return;
  std::string bytes;
  {
    std::ifstream file(path, std::ios::binary);
    std::stringstream s;
    s << file.rdbuf();
    bytes = s.str();
  }
  std::vector<size_t> regions;  // starts of heap collections and of string chunks
  for (size_t at = bytes.find("GCOL"); at != std::string::npos; at = bytes.find("GCOL", at + 4))
    regions.push_back(at);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  for (const char* name : {"/trials/message", "/cells/key", "/cells/label"}) {
    hid_t set = file >= 0 ? H5Dopen2(file, name, H5P_DEFAULT) : -1;
    hsize_t offset = 0, size = 0;
    haddr_t address = 0;
    unsigned mask = 0;
    const hid_t space = set >= 0 ? H5Dget_space(set) : -1;
    if (set >= 0 && H5Dget_chunk_info(set, space, 0, &offset, &mask, &address, &size) >= 0 &&
        address < bytes.size())
      regions.push_back(static_cast<size_t>(address));
    if (space >= 0) H5Sclose(space);
    if (set >= 0) H5Dclose(set);
  }
  if (file >= 0) H5Fclose(file);
  if (regions.empty()) return;
  for (int flips = 1 + in.Byte() % 4; flips > 0 && !in.empty(); --flips) {
    const size_t at = regions[in.Byte() % regions.size()] + in.Value<uint16_t>() % 512;
    if (at < bytes.size()) bytes[at] = static_cast<char>(bytes[at] ^ (in.Byte() | 1));
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Template& t = MakeTemplate();
  const std::string& path = fuzz::ScratchPath("result.h5");
  fuzz::WriteFile(path, reinterpret_cast<const uint8_t*>(t.bytes.data()), t.bytes.size());
  Script script(data, size);
  // The first byte chooses: API edits (values, types, shapes, attributes), then byte flips in
  // the string heaps, or both.
  const uint8_t mode = script.Byte() % 3;
  if (mode != 1) Edit(path, script);
  if (mode != 0) FlipStringBytes(path, script);
  // pmoe-analyze's reader: what it accepts holds every rule of result_checks.hpp.
  try {
    const Results results = LoadResults({path});
    for (const TrialRecord& t : results.trials) {
      PMOE_FUZZ_REQUIRE(t.cell < results.cells.size());
      PMOE_FUZZ_REQUIRE(t.trial >= 0 && t.status >= 0 && t.status <= 3);
      PMOE_FUZZ_REQUIRE(std::isnan(t.test_acc) || (t.test_acc >= 0 && t.test_acc <= 1));
      PMOE_FUZZ_REQUIRE(t.epochs >= 0 && t.steps >= 0);
    }
  } catch (const SchemaError&) {
  } catch (const ConfigError&) {
  }
  try {
    const ResultContents contents = ReadResultFile(path);
    std::vector<std::string> keys;
    for (const StoredCell& c : contents.cells) keys.push_back(c.key);
    const RowLimits limits = LimitsOf(keys, contents.meta.trials_per_cell);
    std::set<std::pair<uint64_t, int>> seen;
    for (const TrialRow& r : contents.rows) {
      PMOE_FUZZ_REQUIRE(RowProblem(r, limits).empty());
      PMOE_FUZZ_REQUIRE(seen.insert({r.cell_id, r.result.trial}).second);
    }
    PMOE_FUZZ_REQUIRE(contents.schema.has_value());
  } catch (const SchemaError&) {
  }
  return 0;
}
