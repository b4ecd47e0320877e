// Grid expansion and the cost model used to order work and to plan.
#include "pmoe/sweep/grid/grid.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/family/family.hpp"

namespace pmoe {
namespace {

// Nominal FLOP rate of the training loops on one core (README "Speed": 50-95 GFLOP/s measured;
// early-stopping checks and small shapes run slower). Good enough to order work and to say
// minutes or hours; `plan --pilot` measures.
constexpr double kFlopsPerSecond = 30e9;

// Grid size limits: a million cells takes minutes just to validate; a held row (TrialRow in the
// run's map, its work item, the HDF5 write buffers) is about 1 kB.
constexpr size_t kMaxCells = 1000000;
constexpr double kBytesPerHeldRow = 1024;

void CheckCell(const SweepConfig& config, const Cell& cell, std::set<std::string>& feasible_data) {
  const std::string where = config.path + " (cell " + cell.label + ")";
  try {
    ValidateSpec(cell.spec, where);
  } catch (const SchemaError& e) {  // unreadable image files
    throw ConfigError(where + ": " + e.what());
  }
  const std::string data_key = CanonicalKey(cell.spec, "data.");
  if (feasible_data.count(data_key)) return;
  try {
    DataFamilyOf(cell.spec).Make(cell.spec, /*data_seed=*/0);
  } catch (const InfeasibleError& e) {
    throw ConfigError(where + ": " + e.what());
  } catch (const SchemaError& e) {
    throw ConfigError(where + ": " + e.what());
  }
  feasible_data.insert(data_key);
}

// What the cell's families read of the parameter `name` ("N" and the like: always).
bool Reads(const TrialSpec& spec, const std::string& name) {
  const ParamInfo* p = FindParam(name);
  return p != nullptr && p->ReadBy(spec);
}

// Step `step` of an axis: its parameter's value, and each zipped parameter's; a rule is set later.
void SetStep(const Axis& axis, size_t step, const std::string& path, TrialSpec& spec) {
  if (axis.rule) return;
  SetParam(spec, axis.name, axis.values[step], path);
  for (const auto& [name, values] : axis.zipped) SetParam(spec, name, values[step], path);
}

// Every parameter the file sets, and every axis, must be read by some cell: a key no family of
// the sweep reads would change nothing, which is never what its author meant.
void CheckEveryKeyRead(const SweepConfig& config, const std::vector<Cell>& cells) {
  auto read_by_some = [&](const std::string& name) {
    return std::any_of(cells.begin(), cells.end(),
                       [&](const Cell& c) { return Reads(c.spec, name); });
  };
  auto families = [&] {
    std::set<std::string> names;
    for (const Cell& c : cells) names.insert(c.spec.data.model + "/" + c.spec.model.kind);
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  std::vector<std::string> keys = config.base_keys;
  for (const Axis& axis : config.axes)
    for (const std::string& name : axis.Names()) keys.push_back(name);
  for (const std::string& key : keys)
    if (!read_by_some(key))
      throw ConfigError(config.path + ": " + key + " is read by none of this sweep's families (" +
                        families() +
                        ", as data.model/model.kind): remove it, or choose a family "
                        "that reads it (pmoe-sim --help says which read what)");
  // An axis for one model kind needs cells of that kind that read it.
  for (const Axis& axis : config.axes)
    for (const std::string& kind : axis.kinds) {
      const bool read = std::any_of(cells.begin(), cells.end(), [&](const Cell& c) {
        return c.spec.model.kind == kind && Reads(c.spec, axis.name);
      });
      if (!read)
        throw ConfigError(config.path + ": [grid." + kind + "] " + axis.name +
                          ": no cell of "
                          "this sweep is a " +
                          kind + " model that reads " + axis.name);
    }
  for (const auto& [kind, setting] : config.overrides) {
    TrialSpec probe = config.base;
    probe.model.kind = kind;
    if (!Reads(probe, setting.first))
      throw ConfigError(config.path + ": [model." + kind + "] " + setting.first +
                        " is not read by model " + kind);
  }
}

// A [model.KIND] override of a [grid.KIND] axis's parameter would overwrite every value of it.
void CheckKindAxesNotOverridden(const SweepConfig& config) {
  for (const Axis& axis : config.axes)
    for (const std::string& kind : axis.kinds)
      for (const auto& [override_kind, setting] : config.overrides)
        if (override_kind == kind && setting.first == axis.name)
          throw ConfigError(config.path + ": [grid." + kind + "] " + axis.name + " and [model." +
                            kind + "] " + axis.name.substr(axis.name.find('.') + 1) +
                            " both set it for " + kind + " cells: keep one");
}

// The grid's size, refused before anything is expanded or allocated: the number of cells (each is
// validated and keeps its spec), and the memory the finished rows take, since a run holds every
// row of its sweep to write the result file.
size_t CheckGridSize(const SweepConfig& config) {
  double cells = 1;
  std::string sizes;
  for (const Axis& axis : config.axes) {
    cells *= static_cast<double>(axis.values.size());
    sizes +=
        (sizes.empty() ? "" : " x ") + std::to_string(axis.values.size()) + " (" + axis.name + ")";
  }
  if (cells > kMaxCells) {
    char count[32];
    std::snprintf(count, sizeof count, "%.4g", cells);
    throw ConfigError(config.path + ": [grid] has " + count + " cells (" + sizes +
                      "): expected at most " + std::to_string(kMaxCells) +
                      "; shorten an axis or split the sweep");
  }
  const double trials = cells * config.trials;
  const double need = trials * kBytesPerHeldRow, have = PhysicalMemoryBytes();
  if (have > 0 && need > 0.5 * have) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%.4g trials (%.0f cells x trials = %d) would hold about "
                  "%.3g GB of results in memory, more than half of this machine's %.3g GB",
                  trials, cells, config.trials, need / 1e9, have / 1e9);
    throw ConfigError(config.path + ": " + text + ": lower trials or shorten an axis");
  }
  return static_cast<size_t>(cells);
}

}  // namespace

std::vector<Cell> ExpandGrid(const SweepConfig& config) {
  CheckKindAxesNotOverridden(config);
  const size_t total = CheckGridSize(config);
  std::vector<Cell> cells;
  std::set<std::string> feasible_data;
  std::map<uint64_t, std::string> labels_by_id;
  for (size_t index = 0; index < total; ++index) {
    Cell cell;
    cell.spec = config.base;
    // Mixed-radix digits of index, the last axis varying fastest.
    size_t rest = index;
    std::vector<size_t> digit(config.axes.size());
    for (size_t a = config.axes.size(); a-- > 0;) {
      digit[a] = rest % config.axes[a].values.size();
      rest /= config.axes[a].values.size();
    }
    // Axes of every kind first (model.kind among them), then those of [grid.KIND] sections,
    // which only cells of their kind take.
    for (size_t a = 0; a < config.axes.size(); ++a)
      if (config.axes[a].kinds.empty()) SetStep(config.axes[a], digit[a], config.path, cell.spec);
    for (size_t a = 0; a < config.axes.size(); ++a)
      if (!config.axes[a].kinds.empty() && config.axes[a].AppliesToKind(cell.spec.model.kind))
        SetStep(config.axes[a], digit[a], config.path, cell.spec);
    for (const auto& [kind, setting] : config.overrides)
      if (cell.spec.model.kind == kind)
        SetParam(cell.spec, setting.first, setting.second, config.path);
    // Rules last, in file order: each reads the cell as the axes, overrides and earlier rules
    // left it, in the cells that read its parameter and every parameter it refers to (a CNN has
    // no model.k: model.m = 5 * ${model.k} leaves its m as the base sets it).
    for (const Axis& axis : config.axes)
      if (axis.rule && axis.AppliesToKind(cell.spec.model.kind) && Reads(cell.spec, axis.name) &&
          std::all_of(axis.rule->names().begin(), axis.rule->names().end(),
                      [&](const std::string& name) { return Reads(cell.spec, name); }))
        SetParam(cell.spec, axis.name, EvaluateRule(axis, cell.spec, config.path), config.path);
    // The label names the axes the cell reads; an axis it does not read (or that is not for its
    // model kind) repeats the same cell, which is kept once (the first time), under the values
    // of the axes it reads.
    bool ignores_an_axis = false;
    // A rule's parameter follows from the others: it names no cell.
    for (const Axis& axis : config.axes)
      for (const std::string& name : axis.Names()) {
        if (axis.rule) continue;
        if (!axis.AppliesToKind(cell.spec.model.kind) || !Reads(cell.spec, name)) {
          ignores_an_axis = true;
          continue;
        }
        cell.label += (cell.label.empty() ? "" : ", ") + name + "=" + GetParam(cell.spec, name);
      }
    if (cell.label.empty()) cell.label = "the only cell";
    cell.key = CanonicalKey(cell.spec, "");
    cell.id = HashString(cell.key);
    auto [it, fresh] = labels_by_id.emplace(cell.id, cell.label);
    if (!fresh) {
      if (ignores_an_axis) continue;
      throw ConfigError(config.path + ": cells \"" + it->second + "\" and \"" + cell.label +
                        "\" are the same cell (a value repeated on an axis?)");
    }
    CheckCell(config, cell, feasible_data);
    cells.push_back(std::move(cell));
  }
  CheckEveryKeyRead(config, cells);
  return cells;
}

double EstimateTrialSeconds(const TrialSpec& spec) {
  const DataFamily& data = DataFamilyOf(spec);
  const ModelFamily& model = ModelFamilyOf(spec);
  const DataShape shape = data.Shape(spec);
  const FlopCount flops = model.NominalFlops(spec, shape, model.ExpectedEpochs(spec));
  const double samples = static_cast<double>(spec.N) + spec.N_test;
  return flops.cost() / kFlopsPerSecond + samples * data.SecondsPerSample(spec, shape);
}

double EstimateTestSetBytes(const TrialSpec& spec) {
  const DataShape shape = DataFamilyOf(spec).Shape(spec);
  return 4.0 * spec.N_test * (shape.n * (static_cast<double>(shape.d) + 2) + 2);
}

}  // namespace pmoe
