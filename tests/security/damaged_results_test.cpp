// Issue 28, damaged result files: pmoe-sweep's reader and pmoe-analyze's refuse the same
// impossible files (one validating reader, result_checks.hpp), each with a message naming the
// column; and no byte flipped inside the global heap of the string columns crashes either. The
// Python reader is held to the same refusals by the shared list tests/support/damaged_files.tsv
// (tests/analysis/damaged_files_test.py runs each case through pmoe-analyze, pmoe-sweep and
// pmoe.results.read).
#include <hdf5.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "pmoe/analysis/results.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"
#include "sweep/sweep_test_support.hpp"

namespace pmoe {
namespace {

using Catch::Matchers::Contains;
using test::RunCommand;
using test::SweepCommand;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<std::string> Split(const std::string& text, const std::string& by) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = text.find(by); at != std::string::npos; at = text.find(by, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + by.size();
  }
  parts.push_back(text.substr(start));
  return parts;
}

// One case of the shared list of damaged files (tests/support/damaged_files.tsv, whose header
// describes the edits): the Python reader is tested on the same list.
struct SharedDamage {
  std::string damage, names, template_file;     // template_file "": the sweep's
  std::vector<std::vector<std::string>> edits;  // each: operation, path, arguments
};

std::vector<std::string> SharedListLines() {
  std::ifstream in(std::string(PMOE_SOURCE_DIR) + "/tests/support/damaged_files.tsv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(!lines.empty());
  return lines;
}

// The template's config, from the list's "# config<TAB>..." line ("\n" for each newline).
std::string SharedConfig() {
  for (const std::string& line : SharedListLines())
    if (line.rfind("# config\t", 0) == 0) {
      std::string config;
      for (const std::string& part : Split(line.substr(9), "\\n")) config += part + "\n";
      return config.substr(0, config.size() - 1);
    }
  FAIL("damaged_files.tsv has no config line");
  return "";
}

std::vector<SharedDamage> SharedDamages() {
  std::vector<SharedDamage> cases;
  for (const std::string& line : SharedListLines()) {
    if (line.empty() || line[0] == '#') continue;
    const auto fields = Split(line, "\t");
    REQUIRE(fields.size() == 4);
    SharedDamage c{fields[0], fields[1], fields[2] == "-" ? "" : fields[2], {}};
    for (const std::string& edit : Split(fields[3], " | ")) c.edits.push_back(Split(edit, " "));
    cases.push_back(c);
  }
  return cases;
}

// A valid file of 2 cells x 2 trials, one trial's message not empty.
const std::string& Template() {
  static const std::string bytes = [] {
    const std::string dir = test::FreshDirectory("damaged_template");
    std::ofstream(dir + "/t.ini") << SharedConfig();
    REQUIRE(RunCommand(SweepCommand("run " + dir + "/t.ini --out " + dir + "/t.h5")).status == 0);
    ResultContents c = ReadResultFile(dir + "/t.h5");
    c.rows[1].result.message = "a longer message held in the global heap";
    WriteResultFile(dir + "/t.h5", c.meta, ExpandGrid(LoadSweepConfig(dir + "/t.ini")), *c.schema,
                    c.rows);
    return Slurp(dir + "/t.h5");
  }();
  return bytes;
}

// Both readers on `path`: "" when both accept it, else both messages (which must both exist).
std::string BothRefuse(const std::string& path);

// Whether `message` names `name` as a whole word (so that "/trials row" does not name trial).
bool NamesWord(const std::string& message, const std::string& name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !word(message[at - 1])) && (end == message.size() || !word(message[end])))
      return true;
  }
  return false;
}

// pmoe-sweep's reader's message and pmoe-analyze's on `path` ("" where one reads it).
std::pair<std::string, std::string> Refusals(const std::string& path) {
  std::string sweep, analysis;
  try {
    ReadResultFile(path);
  } catch (const SchemaError& e) {
    sweep = e.what();
  }
  try {
    LoadResults({path});
  } catch (const SchemaError& e) {
    analysis = e.what();
  }
  return {sweep, analysis};
}

std::string BothRefuse(const std::string& path) {
  const auto [sweep, analysis] = Refusals(path);
  INFO("pmoe-sweep: " << sweep << "\npmoe-analyze: " << analysis);
  CHECK(sweep.empty() == analysis.empty());  // what one refuses, the other refuses
  return sweep + analysis;
}

void Edit(const std::string& path, const std::function<void(hid_t)>& edit) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(file >= 0);
  edit(file);
  H5Fclose(file);
}

template <typename T>
void SetValue(hid_t file, const char* column, hsize_t row, T value, hid_t type) {
  const hid_t set = H5Dopen2(file, column, H5P_DEFAULT);
  const hid_t space = H5Dget_space(set);
  const hsize_t count = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &row, nullptr, &count, nullptr);
  const hid_t memory = H5Screate_simple(1, &count, nullptr);
  REQUIRE(H5Dwrite(set, type, memory, space, H5P_DEFAULT, &value) >= 0);
  H5Sclose(memory);
  H5Sclose(space);
  H5Dclose(set);
}

// --- the edits of the shared list (damaged_files.tsv's header describes them) -----------------

// A column's elements as stored (in the library's memory form: a string is a char*).
struct RawColumn {
  hid_t file_type = -1, memory_type = -1;
  std::vector<hsize_t> dims;
  size_t element = 0;
  std::vector<char> bytes;
};

RawColumn ReadRaw(hid_t file, const std::string& path) {
  RawColumn c;
  const hid_t set = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  REQUIRE(set >= 0);
  c.file_type = H5Dget_type(set);
  c.memory_type = H5Tget_native_type(c.file_type, H5T_DIR_ASCEND);
  c.element = H5Tget_size(c.memory_type);
  const hid_t space = H5Dget_space(set);
  c.dims.resize(H5Sget_simple_extent_ndims(space));
  H5Sget_simple_extent_dims(space, c.dims.data(), nullptr);
  hsize_t count = 1;
  for (const hsize_t d : c.dims) count *= d;
  c.bytes.resize(count * c.element);
  REQUIRE(H5Dread(set, c.memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.bytes.data()) >= 0);
  H5Sclose(space);
  H5Dclose(set);
  return c;  // its strings are not reclaimed: the test process is short
}

// The column at `path` replaced by `c` (its type, dims and bytes), without its attributes: no
// check of either reader needs them once the type or shape is wrong.
void WriteRaw(hid_t file, const std::string& path, const RawColumn& c) {
  H5Ldelete(file, path.c_str(), H5P_DEFAULT);
  const hid_t space = H5Screate_simple(static_cast<int>(c.dims.size()), c.dims.data(), nullptr);
  const hid_t set =
      H5Dcreate2(file, path.c_str(), c.file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(H5Dwrite(set, c.memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.bytes.data()) >= 0);
  H5Dclose(set);
  H5Sclose(space);
}

hid_t TextType() {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

bool IsInteger(const std::string& text) {
  return !text.empty() && text.find_first_not_of("-0123456789") == std::string::npos;
}

void SetCell(hid_t file, const std::string& path, hsize_t row, const std::string& text) {
  const hid_t set = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  const hid_t stored = H5Dget_type(set);
  const bool is_text = H5Tget_class(stored) == H5T_STRING;
  H5Tclose(stored);
  H5Dclose(set);
  if (is_text) {
    const char* value = text.c_str();
    const hid_t type = TextType();
    SetValue<const char*>(file, path.c_str(), row, value, type);
    H5Tclose(type);
  } else if (IsInteger(text)) {
    SetValue<int64_t>(file, path.c_str(), row, std::stoll(text), H5T_NATIVE_INT64);
  } else {  // "nan" or a number with a point
    SetValue<double>(file, path.c_str(), row, text == "nan" ? NAN : std::stod(text),
                     H5T_NATIVE_DOUBLE);
  }
}

// The description attribute of the column at `path` (where the tools write its codes' names).
void SetDescription(hid_t file, const std::string& path, const std::string& text) {
  if (H5Aexists_by_name(file, path.c_str(), "description", H5P_DEFAULT) > 0)
    H5Adelete_by_name(file, path.c_str(), "description", H5P_DEFAULT);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t type = TextType();
  const hid_t attr = H5Acreate_by_name(file, path.c_str(), "description", type, space, H5P_DEFAULT,
                                       H5P_DEFAULT, H5P_DEFAULT);
  const char* chars = text.c_str();
  REQUIRE(H5Awrite(attr, type, &chars) >= 0);
  H5Aclose(attr);
  H5Tclose(type);
  H5Sclose(space);
}

void SetRootAttribute(hid_t file, const std::string& name, const std::vector<std::string>& value) {
  if (H5Aexists(file, name.c_str()) > 0) H5Adelete(file, name.c_str());
  if (value.empty()) return;  // deleted
  const std::string text = value[0] == "\"\"" ? "" : value[0];
  const hid_t space = H5Screate(H5S_SCALAR);
  const bool integer = IsInteger(text);
  const hid_t type = integer ? H5Tcopy(H5T_STD_I64LE) : TextType();
  const hid_t attr = H5Acreate2(file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const int64_t number = integer ? std::stoll(text) : 0;
  const char* chars = text.c_str();
  REQUIRE(H5Awrite(attr, integer ? H5T_NATIVE_INT64 : type,
                   integer ? static_cast<const void*>(&number) : &chars) >= 0);
  H5Aclose(attr);
  H5Tclose(type);
  H5Sclose(space);
}

// A string column stored as fixed-length strings as wide as its longest value.
void StoreAsFixedText(hid_t file, const std::string& path) {
  RawColumn c = ReadRaw(file, path);  // variable-length: a char* each
  std::vector<std::string> values;
  size_t width = 1;
  for (size_t at = 0; at < c.bytes.size(); at += c.element) {
    const char* text = nullptr;
    std::memcpy(&text, &c.bytes[at], sizeof text);
    values.emplace_back(text ? text : "");
    width = std::max(width, values.back().size());
  }
  c.file_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(c.file_type, width);
  c.memory_type = c.file_type;
  c.element = width;
  c.bytes.assign(values.size() * width, '\0');
  for (size_t i = 0; i < values.size(); ++i)
    std::copy(values[i].begin(), values[i].end(), c.bytes.begin() + i * width);
  WriteRaw(file, path, c);
}

// The column stored as `kind` (u8 i32 i64 f64), its numbers kept (NaN as 0; text as zeros);
// "text": fixed-length strings.
void Retype(hid_t file, const std::string& path, const std::string& kind) {
  if (kind == "text") return StoreAsFixedText(file, path);
  const RawColumn old = ReadRaw(file, path);
  const hsize_t rows = old.dims[0];
  std::vector<double> values(rows, 0.0);
  if (H5Tget_class(old.file_type) != H5T_STRING) {
    const hid_t set = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    H5Dclose(set);
    for (double& v : values) v = std::isnan(v) ? 0 : v;
  }
  const hid_t type = kind == "u8"    ? H5T_STD_U8LE
                     : kind == "i32" ? H5T_STD_I32LE
                     : kind == "i64" ? H5T_STD_I64LE
                                     : H5T_IEEE_F64LE;
  H5Ldelete(file, path.c_str(), H5P_DEFAULT);
  const hid_t space = H5Screate_simple(1, &rows, nullptr);
  const hid_t set =
      H5Dcreate2(file, path.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Dclose(set);
  H5Sclose(space);
}

void Reshape(hid_t file, const std::string& path) {  // rows x 2, each value twice
  RawColumn c = ReadRaw(file, path);
  std::vector<char> doubled;
  for (size_t at = 0; at < c.bytes.size(); at += c.element)
    for (int copy = 0; copy < 2; ++copy)
      doubled.insert(doubled.end(), c.bytes.begin() + at, c.bytes.begin() + at + c.element);
  c.bytes = doubled;
  c.dims = {c.dims[0], 2};
  WriteRaw(file, path, c);
}

void Resize(hid_t file, const std::string& path, hsize_t rows) {
  RawColumn c = ReadRaw(file, path);
  c.bytes.resize(rows * c.element);
  c.dims = {rows};
  WriteRaw(file, path, c);
}

// Row `to` set to row `from` (swap: the two exchanged).
void CopyRow(hid_t file, const std::string& path, size_t from, size_t to, bool swap) {
  RawColumn c = ReadRaw(file, path);
  const std::vector<char> source(c.bytes.begin() + from * c.element,
                                 c.bytes.begin() + (from + 1) * c.element);
  if (swap)
    std::copy_n(c.bytes.begin() + to * c.element, c.element, c.bytes.begin() + from * c.element);
  std::copy(source.begin(), source.end(), c.bytes.begin() + to * c.element);
  WriteRaw(file, path, c);
}

void ApplyEdit(hid_t file, const std::vector<std::string>& edit) {
  const std::string& op = edit.at(0);
  const std::string& path = edit.at(1);
  auto number = [&](size_t i) { return static_cast<hsize_t>(std::stoull(edit.at(i))); };
  auto rest = [&](size_t from) {  // the words from `from` on: a text value may hold spaces
    std::string text = edit.at(from);
    for (size_t i = from + 1; i < edit.size(); ++i) text += " " + edit[i];
    return text;
  };
  if (op == "set") {
    SetCell(file, path, number(2), rest(3));
  } else if (op == "description") {
    SetDescription(file, path, rest(2));
  } else if (op == "delete") {
    REQUIRE(H5Ldelete(file, path.c_str(), H5P_DEFAULT) >= 0);
  } else if (op == "attribute") {
    SetRootAttribute(file, path, {edit.begin() + 2, edit.end()});
  } else if (op == "retype") {
    Retype(file, path, edit.at(2));
  } else if (op == "reshape") {
    Reshape(file, path);
  } else if (op == "resize") {
    Resize(file, path, number(2));
  } else if (op == "copy_row" || op == "swap") {
    CopyRow(file, path, number(2), number(3), op == "swap");
  } else {
    FAIL("an edit this test does not know: " << op);
  }
}

}  // namespace

TEST_CASE("Every damaged file of the shared list is refused by both readers, naming its column",
          "[security][results][shared]") {
  const std::string path = test::FreshDirectory("damaged_shared") + "/d.h5";
  Spit(path, Template());
  CHECK(BothRefuse(path).empty());  // the template itself is fine
  for (const SharedDamage& d : SharedDamages()) {
    INFO(d.damage);
    Spit(path, d.template_file.empty()
                   ? Template()
                   : Slurp(std::string(PMOE_SOURCE_DIR) + "/" + d.template_file));
    Edit(path, [&](hid_t f) {
      for (const auto& edit : d.edits) ApplyEdit(f, edit);
    });
    const auto [sweep, analysis] = Refusals(path);
    INFO("pmoe-sweep: " << sweep << "\npmoe-analyze: " << analysis);
    CHECK(NamesWord(sweep, d.names));
    CHECK(NamesWord(analysis, d.names));
    CHECK_THAT(sweep + analysis, Contains(path));
  }
}

TEST_CASE("A negative trial index ends each tool with exit 2 and one line", "[security][results]") {
  const std::string dir = test::FreshDirectory("damaged_values");
  const std::string path = dir + "/d.h5";
  // The damaged values, shapes and types themselves: the shared list (the test case above).
  // The tools: exit 2 with one line, no crash (a negative trial index once segfaulted these).
  Spit(path, Template());
  Edit(path, [](hid_t f) { SetValue<int32_t>(f, "/trials/trial", 0, -5, H5T_NATIVE_INT32); });
  for (const std::string& command :
       {SweepCommand("status " + path), std::string(PMOE_ANALYZE_PATH) + " summary " + path,
        std::string(PMOE_ANALYZE_PATH) + " sample-complexity " + path,
        std::string(PMOE_ANALYZE_PATH) + " exponent " + path}) {
    const auto r = RunCommand(command);
    INFO(command << "\n" << r.err);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("trial -5"));
  }
}

TEST_CASE("A damaged global-heap reference of a string column is refused, never followed",
          "[security][results][heap]") {
  const std::string dir = test::FreshDirectory("damaged_heap");
  const std::string path = dir + "/d.h5";
  // The raw reference of /trials/message row 1 (its length, collection address, object index).
  Spit(path, Template());
  haddr_t chunk = 0;
  {
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t set = H5Dopen2(file, "/trials/message", H5P_DEFAULT);
    hsize_t offset = 0, size = 0;
    unsigned mask = 0;
    const hid_t space = H5Dget_space(set);
    REQUIRE(H5Dget_chunk_info(set, space, 0, &offset, &mask, &chunk, &size) >= 0);
    H5Sclose(space);
    H5Dclose(set);
    H5Fclose(file);
  }
  const size_t element = 16, row1 = static_cast<size_t>(chunk) + element;
  for (const auto& [what, at, value] :
       {std::tuple<const char*, size_t, uint32_t>{"object index", row1 + 12, 999},
        {"object index 0", row1 + 12, 0},
        {"length", row1, 100000},
        {"collection address", row1 + 4, 12}}) {
    INFO(what);
    std::string bytes = Template();
    std::memcpy(&bytes[at], &value, 4);
    Spit(path, bytes);
    CHECK_THAT(BothRefuse(path) + "", Contains("message") || Contains("key") || Contains("heap"));
    const auto r = RunCommand(SweepCommand("status " + path));
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("/trials/message") && Contains("damaged"));
  }
  // Every byte of every heap collection flipped in turn: refused or read, never a crash.
  const std::string original = Template();
  size_t flips = 0;
  for (size_t gcol = original.find("GCOL"); gcol != std::string::npos;
       gcol = original.find("GCOL", gcol + 4)) {
    for (size_t at = gcol; at < std::min(original.size(), gcol + 400); ++at) {
      std::string bytes = original;
      bytes[at] = static_cast<char>(bytes[at] ^ 0xff);
      Spit(path, bytes);
      try {
        ReadResultFile(path);
      } catch (const SchemaError&) {
      }
      try {
        LoadResults({path});
      } catch (const SchemaError&) {
      }
      ++flips;
    }
  }
  CHECK(flips >= 400);
}

}  // namespace pmoe
