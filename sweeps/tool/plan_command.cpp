// The plan: what a sweep would run and roughly what it would cost, most costly cells first (the
// order the runner uses, so that the cores stay busy to the end).
#include "plan_command.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/sweep/grid.hpp"

namespace pmoe {
namespace {

std::string Duration(double seconds) {
  char buf[64];
  if (seconds < 120) std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else if (seconds < 7200) std::snprintf(buf, sizeof buf, "%.1f min", seconds / 60);
  else std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  return buf;
}

}  // namespace

int RunPlanCommand(const std::vector<std::string>& args, std::ostream& out) {
  std::string path;
  bool json = false, all = false;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else if (a == "--all") all = true;
    else if (path.empty() && a.rfind("--", 0) != 0) path = a;
    else throw ConfigError("plan: unexpected argument \"" + a + "\" (usage: pmoe-sweep plan "
                           "CONFIG.ini [--all] [--json])");
  }
  if (path.empty()) throw ConfigError("plan: missing CONFIG.ini (usage: pmoe-sweep plan CONFIG.ini)");
  const SweepConfig config = LoadSweepConfig(path);
  std::vector<Cell> cells = ExpandGrid(config);
  std::vector<std::pair<double, const Cell*>> by_cost;
  double total_seconds = 0, peak_bytes = 0;
  for (const Cell& c : cells) {
    const double s = EstimateTrialSeconds(c.spec);
    by_cost.push_back({s, &c});
    total_seconds += s * config.trials;
    peak_bytes = std::max(peak_bytes, EstimateTrialBytes(c.spec));
  }
  std::stable_sort(by_cost.begin(), by_cost.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const long trials = static_cast<long>(cells.size()) * config.trials;

  if (json) {
    JsonWriter w(out);
    w.BeginObject().Field("name", config.name).Field("config", config.path);
    w.Field("seed", static_cast<unsigned long long>(config.seed)).Field("cells", cells.size());
    w.Field("trials_per_cell", config.trials).Field("trials", trials);
    w.Field("estimated_core_seconds", total_seconds).Field("peak_trial_bytes", peak_bytes);
    w.Key("cell_list").BeginArray();
    for (const auto& [s, c] : by_cost)
      w.BeginObject().Field("cell_id", static_cast<unsigned long long>(c->id))
          .Field("label", c->label).Field("estimated_trial_seconds", s).EndObject();
    w.EndArray().EndObject();
    out << "\n";
    return 0;
  }
  out << "sweep " << config.name << " (" << config.path << "), seed " << config.seed << "\n";
  for (const Axis& axis : config.axes) {
    out << "  axis " << axis.name << ": ";
    for (size_t i = 0; i < axis.values.size(); ++i) out << (i ? ", " : "") << axis.values[i];
    out << " (" << axis.values.size() << " values)\n";
  }
  out << "  " << cells.size() << " cells x " << config.trials << " trials = " << trials
      << " trials\n";
  char line[256];
  std::snprintf(line, sizeof line,
                "  estimated cost: %s of one core, ~%s on %u cores; peak memory per trial %.1f "
                "MB\n", Duration(total_seconds).c_str(),
                Duration(total_seconds / cores).c_str(), cores, peak_bytes / 1e6);
  out << line << "  cells, most costly first (estimated seconds per trial):\n";
  const size_t shown = all ? by_cost.size() : std::min<size_t>(by_cost.size(), 20);
  for (size_t i = 0; i < shown; ++i) {
    std::snprintf(line, sizeof line, "    %8.3f  %s\n", by_cost[i].first,
                  by_cost[i].second->label.c_str());
    out << line;
  }
  if (shown < by_cost.size()) out << "    ... " << by_cost.size() - shown << " more (--all)\n";
  return 0;
}

}  // namespace pmoe
