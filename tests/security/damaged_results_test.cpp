// Issue 28, damaged result files: pmoe-sweep's reader and pmoe-analyze's refuse the same
// impossible files (one validating reader, result_checks.hpp), each with a message naming the
// column; and no byte flipped inside the global heap of the string columns crashes either. The
// Python reader is held to the same refusals by the shared list tests/support/damaged_files.tsv
// (tests/analysis/damaged_files_test.py runs each case through pmoe-analyze, pmoe-sweep and
// pmoe.results.read).
#include <hdf5.h>

#include <catch2/catch.hpp>
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

// A valid file of 2 cells x 2 trials, one trial's message not empty.
const std::string& Template() {
  static const std::string bytes = [] {
    const std::string dir = test::FreshDirectory("damaged_template");
    std::ofstream(dir + "/t.ini") << "name = t\nseed = 3\ntrials = 2\nN_test = 100\n[model]\n"
                                     "epochs = 5\nm = 8\n[grid]\nmodel.kind = separate,cnn\n";
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
std::string BothRefuse(const std::string& path) {
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

// Replaces `column` by a column of `rows` doubles (another type, another length or rank 2).
void ReplaceColumn(hid_t file, const char* column, int rank, hsize_t rows) {
  H5Ldelete(file, column, H5P_DEFAULT);
  const hsize_t dims[2] = {rows, 2};
  const hid_t space = H5Screate_simple(rank, dims, nullptr);
  const hid_t set =
      H5Dcreate2(file, column, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  std::vector<double> zeros(rows * 2, 0.0);
  H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data());
  H5Dclose(set);
  H5Sclose(space);
}

}  // namespace

TEST_CASE("Impossible values, shapes, types and references are refused by both readers",
          "[security][results]") {
  const std::string dir = test::FreshDirectory("damaged_values");
  const std::string path = dir + "/d.h5";
  struct Damage {
    const char* what;
    const char* expect;
    std::function<void(hid_t)> edit;
  };
  const Damage damages[] = {
      {"a negative trial index", "trial -1",
       [](hid_t f) { SetValue<int32_t>(f, "/trials/trial", 0, -1, H5T_NATIVE_INT32); }},
      {"a trial index past trials_per_cell", "trial 2",
       [](hid_t f) { SetValue<int32_t>(f, "/trials/trial", 0, 2, H5T_NATIVE_INT32); }},
      {"an unknown status", "status 7",
       [](hid_t f) { SetValue<uint8_t>(f, "/trials/status", 1, 7, H5T_NATIVE_UINT8); }},
      {"an unknown stop reason", "stop_reason 9",
       [](hid_t f) { SetValue<uint8_t>(f, "/trials/stop_reason", 1, 9, H5T_NATIVE_UINT8); }},
      {"a success flag of 2", "success 2",
       [](hid_t f) { SetValue<uint8_t>(f, "/trials/success", 0, 2, H5T_NATIVE_UINT8); }},
      {"test accuracy 5", "test_acc 5",
       [](hid_t f) { SetValue<double>(f, "/trials/test_acc", 0, 5.0, H5T_NATIVE_DOUBLE); }},
      {"NaN accuracy of an ok trial", "train_acc is NaN",
       [](hid_t f) { SetValue<double>(f, "/trials/train_acc", 0, NAN, H5T_NATIVE_DOUBLE); }},
      {"negative epochs", "epochs -3",
       [](hid_t f) { SetValue<int32_t>(f, "/trials/epochs", 0, -3, H5T_NATIVE_INT32); }},
      {"negative steps", "steps -1",
       [](hid_t f) { SetValue<int64_t>(f, "/trials/steps", 0, -1, H5T_NATIVE_INT64); }},
      {"a cell id of no cell", "no cell of /cells",
       [](hid_t f) { SetValue<uint64_t>(f, "/trials/cell_id", 0, 12345, H5T_NATIVE_UINT64); }},
      {"a repeated trial", "repeats trial",
       [](hid_t f) { SetValue<int32_t>(f, "/trials/trial", 1, 0, H5T_NATIVE_INT32); }},
      {"trials_per_cell 1 for trials 0 and 1", "trial 1",
       [](hid_t f) {
         H5Adelete(f, "trials_per_cell");
         const hid_t s = H5Screate(H5S_SCALAR);
         const hid_t a =
             H5Acreate2(f, "trials_per_cell", H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
         const int64_t one = 1;
         H5Awrite(a, H5T_NATIVE_INT64, &one);
         H5Aclose(a);
         H5Sclose(s);
       }},
      {"no trials_per_cell", "trials_per_cell", [](hid_t f) { H5Adelete(f, "trials_per_cell"); }},
      {"no config", "attribute config", [](hid_t f) { H5Adelete(f, "config"); }},
      {"a status column of another type", "status",
       [](hid_t f) { ReplaceColumn(f, "/trials/status", 1, 4); }},
      {"a trial column of rank 2", "trial",
       [](hid_t f) { ReplaceColumn(f, "/trials/trial", 2, 4); }},
      {"an epochs column of another length", "epochs",
       [](hid_t f) { ReplaceColumn(f, "/trials/epochs", 1, 3); }},
      // /theory (the families' declared bounds): three string columns of one length.
      {"no /theory/multiclass", "/theory/multiclass",
       [](hid_t f) { H5Ldelete(f, "/theory/multiclass", H5P_DEFAULT); }},
      {"a /theory column of numbers", "/theory/samples",
       [](hid_t f) { ReplaceColumn(f, "/theory/samples", 1, 3); }},
      {"a status stored wider, out of range", "status",
       [](hid_t f) {
         H5Ldelete(f, "/trials/status", H5P_DEFAULT);
         const hsize_t rows = 4;
         const hid_t s = H5Screate_simple(1, &rows, nullptr);
         const hid_t d = H5Dcreate2(f, "/trials/status", H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT,
                                    H5P_DEFAULT);
         const int64_t v[4] = {0, -1, 0, 0};  // -1 clipped to 0 would have read as ok
         H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
         H5Dclose(d);
         H5Sclose(s);
       }},
  };
  Spit(path, Template());
  CHECK(BothRefuse(path).empty());  // the template itself is fine
  for (const Damage& d : damages) {
    INFO(d.what);
    Spit(path, Template());
    Edit(path, d.edit);
    const std::string refused = BothRefuse(path);
    CHECK_THAT(refused, Contains(d.expect));
  }
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
