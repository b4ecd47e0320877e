// Writes an empty result file of one default cell to a temporary directory with the store's own
// writer, walks it with the HDF5 API (attributes, groups, datasets, their "description"), and
// adds the columns each family declares, so the reference cannot list a column the store does
// not write or miss one it does.
#include "schema_reference.hpp"

#include <hdf5.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include "pmoe/cli/command.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "pmoe/sweep/store/trial_row.hpp"

namespace pmoe {
namespace {

// What each root attribute means (ResultMeta, result_file.cpp); an attribute the store writes
// and this list lacks shows as "(undocumented)" in the reference, for a reviewer to see.
const std::map<std::string, std::string>& RootMeanings() {
  static const std::map<std::string, std::string> m = {
      {"schema_version", "version of this layout (readers refuse newer ones)"},
      {"numerics_version", "the numerics version of the tool that computed the trials"},
      {"numerics_build", "compiler, target, instruction set, kernels, libm of that build"},
      {"adaptive", "adaptive sweeps: the search's settings and method (absent otherwise)"},
      {"adaptive_series",
       "adaptive sweeps: one line per series (label, state, rounds, "
       "trials, N*, lo, hi)"},
      {"name", "the sweep's name (results/NAME.h5)"},
      {"config", "the sweep config's full text"},
      {"config_path", "the config's path as given"},
      {"master_seed", "the master seed every trial's seeds derive from"},
      {"trials_per_cell", "trials per cell"},
      {"shard", "\"I/K\" for a shard's file, empty otherwise"},
      {"command_line", "the command that wrote the file"},
      {"created_utc", "when the file was written (ISO 8601, UTC)"},
      {"tool_version", "pmoe-sweep's version"},
      {"git_describe", "git describe of the source it was built from"},
      {"trial_columns", "the /trials columns and their types, \"name:type,...\""},
  };
  return m;
}

std::string TypeName(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return std::string(H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") +
             std::to_string(8 * H5Tget_size(type));
    case H5T_FLOAT:
      return "float" + std::to_string(8 * H5Tget_size(type));
    case H5T_STRING:
      return "string";
    default:
      return "other";
  }
}

std::string StringAttribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return "";
  const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(attr);
  std::string out;
  if (H5Tget_class(type) == H5T_STRING) {
    const hid_t mem = H5Tcopy(H5T_C_S1);
    if (H5Tis_variable_str(type) > 0) {
      H5Tset_size(mem, H5T_VARIABLE);
      char* value = nullptr;
      if (H5Aread(attr, mem, &value) >= 0 && value != nullptr) {
        out = value;
        H5free_memory(value);
      }
    } else {
      const size_t size = H5Tget_size(type);
      H5Tset_size(mem, size);
      std::vector<char> buf(size + 1, '\0');
      if (H5Aread(attr, mem, buf.data()) >= 0) out = buf.data();
    }
    H5Tclose(mem);
  }
  H5Tclose(type);
  H5Aclose(attr);
  return out;
}

struct Entry {
  std::string name, type, meaning;
};

herr_t CollectAttribute(hid_t object, const char* name, const H5A_info_t*, void* data) {
  const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(attr);
  static_cast<std::vector<Entry>*>(data)->push_back({name, TypeName(type), ""});
  H5Tclose(type);
  H5Aclose(attr);
  return 0;
}

std::vector<Entry> Datasets(hid_t file, const std::string& group) {
  std::vector<Entry> out;
  const hid_t g = H5Gopen(file, group.c_str(), H5P_DEFAULT);
  if (g < 0) return out;
  H5G_info_t info{};
  H5Gget_info(g, &info);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[512];
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    const hid_t d = H5Dopen(g, name, H5P_DEFAULT);
    if (d < 0) continue;
    const hid_t type = H5Dget_type(d);
    Entry e{name, TypeName(type), StringAttribute(d, "description")};
    if (H5Aexists(d, "list") > 0) e.meaning += " (list length; values in /trial_lists)";
    out.push_back(e);
    H5Tclose(type);
    H5Dclose(d);
  }
  H5Gclose(g);
  return out;
}

void Table(std::ostringstream& out, const std::vector<Entry>& entries, const char* head) {
  out << "| " << head << " | Type | Meaning |\n|---|---|---|\n";
  for (const Entry& e : entries)
    out << "| `" << e.name << "` | " << e.type << " | " << cli::MarkdownCell(e.meaning) << " |\n";
  out << "\n";
}

void FamilyMetrics(std::ostringstream& out, const std::string& family,
                   const std::vector<MetricInfo>& metrics) {
  if (metrics.empty()) return;
  out << "`" << family << "`:\n\n| Column | Type | Rate | Meaning |\n|---|---|---|---|\n";
  for (const MetricInfo& m : metrics)
    out << "| `" << m.name << (m.per == PerClass::kNo ? "" : "I") << "` | "
        << ColumnTypeName(m.type) << " | " << (m.rate ? "yes" : "no") << " | "
        << cli::MarkdownCell(m.help)
        << (m.per == PerClass::kNo ? ""
                                   : " (one column per class "
                                     "or pair I)")
        << " |\n";
  out << "\n";
}

// /cells' columns with their meanings: the id, key and label, then the parameters' help.
std::vector<Entry> CellColumns(hid_t file) {
  std::vector<Entry> columns = Datasets(file, "/cells");
  for (Entry& e : columns) {
    const ParamInfo* p = FindParam(e.name == "success_criterion" ? "success" : e.name);
    if (e.meaning.empty() && p != nullptr) e.meaning = "parameter: " + p->help;
    if (e.name == "cell_id") e.meaning = "hash of the canonical key (the trials' cell_id)";
    if (e.name == "key") e.meaning = "canonical \"name=value;...\" over the parameters read";
    if (e.name == "label") e.meaning = "the swept values, e.g. \"model.l=3, N=500\"";
  }
  return columns;
}

// /resolved's columns: each parameter's rule.
std::vector<Entry> ResolvedColumns(hid_t file) {
  std::vector<Entry> columns = Datasets(file, "/resolved");
  for (Entry& e : columns)
    if (const ParamInfo* p = FindParam(e.name)) e.meaning = "resolved: " + p->rule;
  return columns;
}

// /theory's columns with their meanings.
std::vector<Entry> TheoryColumns(hid_t file) {
  std::vector<Entry> columns = Datasets(file, "/theory");
  for (Entry& e : columns) {
    if (e.name == "model_kind") e.meaning = "a model.kind of the file's cells";
    if (e.name == "label")
      e.meaning =
          "how figures and pages name it (\"separate pMoE\"); absent in older files: the "
          "families table of docs/reference/parameters.md";
    if (e.name == "samples")
      e.meaning = "its sufficient sample complexity, e.g. \"l^8 p^12 delta^6 / eps^16\"";
    if (e.name == "multiclass") e.meaning = "the factor over the classes c, or \"none (why)\"";
    if (e.name == "ratio_baseline")
      e.meaning = "\"true\" when ratios divide by its N* (the CNN); absent in older files: the CNN";
  }
  return columns;
}

}  // namespace

std::string ResultSchemaMarkdown() {
  char dir_template[] = "/tmp/pmoe-schema-XXXXXX";
  if (::mkdtemp(dir_template) == nullptr) throw IoError("cannot create a temporary directory");
  const std::string dir = dir_template, path = dir + "/schema.h5";
  std::ostringstream out;
  try {
    const SweepConfig config = ParseSweepConfig(dir + "/schema.ini", "name = schema\n");
    const std::vector<Cell> cells = ExpandGrid(config);
    WriteResultFile(path, ResultMeta{}, cells, RowSchema({}, 2), {});
    H5Eset_auto(H5E_DEFAULT, nullptr, nullptr);
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) throw SchemaError(path + ": cannot open the schema file just written");
    std::vector<Entry> root;
    hsize_t index = 0;
    H5Aiterate(file, H5_INDEX_NAME, H5_ITER_INC, &index, CollectAttribute, &root);
    for (Entry& e : root) {
      const auto it = RootMeanings().find(e.name);
      e.meaning = it == RootMeanings().end() ? "(undocumented)" : it->second;
    }
    const std::vector<Entry> cell_columns = CellColumns(file);
    const std::vector<Entry> resolved_columns = ResolvedColumns(file);
    const std::vector<Entry> trial_columns = Datasets(file, "/trials");
    const std::vector<Entry> theory_columns = TheoryColumns(file);
    H5Fclose(file);

    out << "# Result file schema (HDF5)\n\n"
        << "<!-- Generated by `pmoe-sweep --reference schema`; do not edit "
           "(tests/tool/reference_test.cmake compares). -->\n\n"
        << "A result file (`results/NAME.h5`, or a shard's) holds one sweep: attributes on the "
           "root group, one row per cell in `/cells` and one row per trial in `/trials`, each "
           "column a one-dimensional dataset. A crash leaves a journal `NAME.h5.journal` beside "
           "it (binary records, read by `pmoe-sweep status`).\n\n"
        << "## Root attributes\n\n";
    Table(out, root, "Attribute");
    out << "## `/cells`\n\nOne row per cell: its id, key and label, then one column per "
           "parameter (text for choices, numbers otherwise).\n\n";
    Table(out, cell_columns, "Column");
    out << "## `/resolved`\n\nOne row per cell, in `/cells` order: for each parameter whose "
           "default stands for a rule, the value the rule gave the cell (NaN where the cell does "
           "not read it). The key and `/cells` keep the value as given. Files written before it "
           "have none.\n\n";
    Table(out, resolved_columns, "Column");
    out << "## `/theory`\n\nOne row per model kind of the cells: the bound its family "
           "declares (empty where the theory gives none), from which `pmoe-analyze` reads the "
           "theory's order of a swept parameter (n, l, k, p, c are data.n, model.l, model.k, "
           "data.p, data.c). Files written before it have no `/theory`: the analysis then uses "
           "a legacy table of the built-in families.\n\n";
    Table(out, theory_columns, "Column");
    out << "## `/trials`\n\nOne row per trial, sorted by cell (in `/cells` order) and trial. "
           "The core columns every file has (a two-class file shown; `train_count_I` has one "
           "column per class):\n\n";
    Table(out, trial_columns, "Column");
    out << "Then the columns the families of the file's cells declare (each stores a "
           "`description` attribute, `metric` = 1 and `rate`), before `message`/timings:\n\n";
    for (const DataFamily* f : DataFamilies())
      FamilyMetrics(out, "data.model = " + f->name(), f->metrics());
    for (const ModelFamily* f : ModelFamilies())
      FamilyMetrics(out, "model.kind = " + f->name(), f->metrics());
  } catch (...) {
    std::filesystem::remove_all(dir);
    throw;
  }
  std::filesystem::remove_all(dir);
  return out.str();
}

}  // namespace pmoe
