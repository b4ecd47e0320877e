// Grid expansion and the cost model used to order work and to plan.
#include "pmoe/sweep/grid.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/core/validate.hpp"
#include "pmoe/data/data_source.hpp"

namespace pmoe {
namespace {

// Measured on the development machine (README): ~30 GFLOP/s in the training loops, ~25 ns per
// generated coordinate of data. Good enough to order work and to say minutes or hours.
constexpr double kFlopsPerSecond = 30e9;
constexpr double kSecondsPerDataValue = 25e-9;

void CheckCell(const SweepConfig& config, const Cell& cell,
               std::set<std::string>& feasible_data) {
  const std::string where = config.path + " (cell " + cell.label + ")";
  ValidateSpec(cell.spec, where);
  const std::string data_key = CanonicalKey(cell.spec, "data.");
  if (feasible_data.count(data_key)) return;
  try {
    MakeDataSource(cell.spec.data, /*data_seed=*/0);
  } catch (const InfeasibleError& e) {
    throw ConfigError(where + ": " + e.what());
  } catch (const SchemaError& e) {  // unreadable image files
    throw ConfigError(where + ": " + e.what());
  }
  feasible_data.insert(data_key);
}

}  // namespace

std::vector<Cell> ExpandGrid(const SweepConfig& config) {
  size_t total = 1;
  for (const Axis& axis : config.axes) total *= axis.values.size();
  std::vector<Cell> cells;
  cells.reserve(total);
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
    for (size_t a = 0; a < config.axes.size(); ++a) {
      const Axis& axis = config.axes[a];
      SetParam(cell.spec, axis.name, axis.values[digit[a]], config.path);
      cell.label += (a ? ", " : "") + axis.name + "=" + GetParam(cell.spec, axis.name);
    }
    for (const auto& [kind, setting] : config.overrides)
      if (cell.spec.model.kind == kind) SetParam(cell.spec, setting.first, setting.second, config.path);
    if (cell.label.empty()) cell.label = "the only cell";
    cell.key = CanonicalKey(cell.spec, "");
    cell.id = HashString(cell.key);
    CheckCell(config, cell, feasible_data);
    auto [it, fresh] = labels_by_id.emplace(cell.id, cell.label);
    if (!fresh)
      throw ConfigError(config.path + ": cells \"" + it->second + "\" and \"" + cell.label +
                        "\" are the same cell (a value repeated on an axis?)");
    cells.push_back(std::move(cell));
  }
  return cells;
}

double EstimateTrialSeconds(const TrialSpec& spec) {
  const DataSpec& data = spec.data;
  const ModelSpec& model = spec.model;
  // Image data takes d from its files; MNIST-format images are 28 x 28.
  const double d = data.model == "image" ? 784 : data.d;
  const double n = data.n, m = model.m, k = model.k, l = model.l;
  double forward = 2 * n * m * d;                                   // CNN: every patch
  if (model.kind == "separate") forward = 2 * l * m * d;
  if (model.kind == "joint") forward = 2 * (n * k * d + l * m * d);
  // Early stopping typically ends well before the cap; a third of it is a fair middle.
  const double epochs = model.early_stop ? std::max(1.0, model.epochs / 3.0) : model.epochs;
  const double train = 3 * forward * spec.N * epochs * (model.early_stop ? 4.0 / 3 : 1.0);
  const double router = model.kind == "separate" ? 2 * n * d * spec.N * 2 : 0.0;
  const double eval = forward * (spec.N + spec.N_test);
  const double generate = (spec.N + spec.N_test) * n * d * kSecondsPerDataValue;
  return (train + router + eval) / kFlopsPerSecond + generate;
}

double EstimateTrialBytes(const TrialSpec& spec) {
  const double d = spec.data.model == "image" ? 784 : spec.data.d;
  const double values = static_cast<double>(spec.N + spec.N_test) * spec.data.n * d;
  const double routed = spec.model.kind == "separate"
                            ? static_cast<double>(spec.N + spec.N_test) * spec.model.k *
                                  spec.model.l * d
                            : 0.0;
  return 4.0 * (values + routed);
}

double EstimateTestSetBytes(const TrialSpec& spec) {
  const double d = spec.data.model == "image" ? 784 : spec.data.d;
  return 4.0 * spec.N_test * (spec.data.n * (d + 2) + 2);
}

}  // namespace pmoe
