#include "pmoe/sweep/adaptive/adaptive_work.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

// The canonical key without its "N=...;" entry: equal for the cells of one series.
std::string KeyWithoutN(const std::string& key) {
  std::string out;
  size_t start = 0;
  while (start < key.size()) {
    size_t end = key.find(';', start);
    if (end == std::string::npos) end = key.size();
    const std::string item = key.substr(start, end - start);
    if (item.rfind("N=", 0) != 0) out += item + ";";
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string SeriesLabel(const Cell& cell) {
  std::string out;
  size_t start = 0;
  const std::string& label = cell.label;
  while (start < label.size()) {
    size_t end = label.find(", ", start);
    if (end == std::string::npos) end = label.size();
    const std::string item = label.substr(start, end - start);
    if (item.rfind("N=", 0) != 0) out += (out.empty() ? "" : ", ") + item;
    start = end + 2;
  }
  return out.empty() ? "all" : out;
}

AdaptiveWork::AdaptiveWork(const std::vector<Cell>& cells, const AdaptiveSettings& settings,
                           const ShardSpec& shard) {
  const std::vector<int> candidates = CandidateNs(settings);
  std::map<std::string, size_t> index;  // key without N -> series, in grid order
  std::vector<Series> all;
  for (size_t c = 0; c < cells.size(); ++c) {
    const auto at = std::find(candidates.begin(), candidates.end(), cells[c].spec.N);
    if (at == candidates.end())
      throw ConfigError("cell " + cells[c].label + ": N = " + std::to_string(cells[c].spec.N) +
                        " is not a candidate of the adaptive search");
    const std::string key = KeyWithoutN(cells[c].key);
    auto [it, inserted] = index.emplace(key, all.size());
    if (inserted)
      all.push_back(Series{SeriesLabel(cells[c]), std::vector<size_t>(candidates.size(), SIZE_MAX),
                           PsiSearch(settings), 0});
    all[it->second].cells[at - candidates.begin()] = c;
  }
  for (size_t s = 0; s < all.size(); ++s) {
    for (size_t cell : all[s].cells)
      if (cell == SIZE_MAX) throw ConfigError("series " + all[s].label + " lacks a candidate N");
    if (shard.count == 0 || static_cast<int>(s % shard.count) + 1 == shard.index)
      series_.push_back(std::move(all[s]));
  }
}

std::vector<WorkItem> AdaptiveWork::Next(const Lookup& held) {
  std::vector<WorkItem> work;
  for (Series& s : series_) {
    while (const auto round = s.search.Next()) {
      const size_t cell = s.cells[round->candidate];
      std::vector<bool> outcomes;
      std::vector<WorkItem> missing;
      for (int t = round->first_trial; t < round->first_trial + round->trials; ++t) {
        const std::optional<bool> success = held(cell, t);
        if (!success)
          missing.push_back({cell, t, 0.0});
        else
          outcomes.push_back(*success);
      }
      if (!missing.empty()) {
        work.insert(work.end(), missing.begin(), missing.end());
        break;
      }
      s.search.Observe(round->candidate, outcomes);
      ++s.rounds;
    }
  }
  return work;
}

std::vector<SeriesOutcome> AdaptiveWork::Outcomes() const {
  std::vector<SeriesOutcome> out;
  for (const Series& s : series_)
    out.push_back(
        {s.label, s.search.state(), s.rounds, s.search.trials_used(), s.search.Estimate()});
  return out;
}

AdaptiveWork::Lookup SuccessLookup(const std::vector<Cell>& cells,
                                   const std::map<std::pair<uint64_t, int>, bool>& success) {
  return [&cells, &success](size_t cell, int trial) -> std::optional<bool> {
    const auto it = success.find({cells[cell].id, trial});
    if (it == success.end()) return std::nullopt;
    return it->second;
  };
}

std::string SeriesTable(const std::vector<SeriesOutcome>& outcomes) {
  std::string text;
  for (const SeriesOutcome& o : outcomes)
    text += o.label + "\t" + SearchStateName(o.state) + "\t" + std::to_string(o.rounds) + "\t" +
            std::to_string(o.trials) + "\t" + FormatDouble(o.estimate.median) + "\t" +
            FormatDouble(o.estimate.lo) + "\t" + FormatDouble(o.estimate.hi) + "\n";
  return text;
}

void PrintSeriesOutcomes(const std::vector<SeriesOutcome>& outcomes, std::ostream& out) {
  size_t width = 6;
  for (const SeriesOutcome& o : outcomes) width = std::max(width, o.label.size());
  char line[256];
  std::snprintf(line, sizeof line, "  %-*s  %-11s %6s %6s %9s  %s\n", int(width), "series", "state",
                "rounds", "trials", "N*", "95% interval");
  out << line;
  for (const SeriesOutcome& o : outcomes) {
    std::snprintf(line, sizeof line, "  %-*s  %-11s %6d %6d %9.1f  [%.1f, %.1f]\n", int(width),
                  o.label.c_str(), SearchStateName(o.state), o.rounds, o.trials, o.estimate.median,
                  o.estimate.lo, o.estimate.hi);
    out << line;
  }
}

std::vector<SeriesOutcome> ParseSeriesTable(const std::string& text) {
  std::vector<SeriesOutcome> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    if (f.size() != 7) continue;
    SeriesOutcome o;
    o.label = f[0];
    for (SearchState s : {SearchState::kRunning, SearchState::kPrecise, SearchState::kBudget,
                          SearchState::kBelowRange, SearchState::kAboveRange})
      if (f[1] == SearchStateName(s)) o.state = s;
    o.rounds = std::atoi(f[2].c_str());
    o.trials = std::atoi(f[3].c_str());
    o.estimate = {std::strtod(f[4].c_str(), nullptr), std::strtod(f[5].c_str(), nullptr),
                  std::strtod(f[6].c_str(), nullptr)};
    out.push_back(o);
  }
  return out;
}

}  // namespace pmoe
