// Sweep identity as text ("seed=..", "trials=..", "shard=..", then one "cell=KEY\tLABEL" per line)
// and a readable account of how two identities differ.
#include "pmoe/sweep/store/sweep_identity.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "pmoe/core/build_info.hpp"
#include "pmoe/core/numerics_history.hpp"
#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

std::string Examples(const std::vector<std::string>& labels) {
  std::string out;
  for (size_t i = 0; i < labels.size() && i < 3; ++i) out += (i ? "; " : "") + labels[i];
  if (labels.size() > 3) out += "; ...";
  return out;
}

// For each parameter of a canonical key "name=value;...", the set of values over the cells.
std::map<std::string, std::set<std::string>> ValuesByParameter(
    const std::vector<std::string>& keys) {
  std::map<std::string, std::set<std::string>> values;
  for (const std::string& key : keys)
    for (const auto& [name, value] : SplitCanonicalKey(key)) values[name].insert(value);
  return values;
}

// "name:type" items of a, b not in the other, named: what a reader would decode wrongly.
std::string ColumnDifference(const std::string& a, const std::string& b, const std::string& a_name,
                             const std::string& b_name) {
  auto items = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
  };
  const auto in_a = items(a), in_b = items(b);
  std::string only_a, only_b;
  for (const auto& x : in_a)
    if (std::find(in_b.begin(), in_b.end(), x) == in_b.end())
      only_a += (only_a.empty() ? "" : ", ") + x;
  for (const auto& x : in_b)
    if (std::find(in_a.begin(), in_a.end(), x) == in_a.end())
      only_b += (only_b.empty() ? "" : ", ") + x;
  std::string out;
  if (!only_a.empty()) out += "only in " + a_name + ": " + only_a;
  if (!only_b.empty())
    out += (out.empty() ? "" : "; ") + std::string("only in ") + b_name + ": " + only_b;
  return out.empty() ? "the same columns in another order" : out;
}

std::string SetText(const std::set<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ",") + v;
  return "{" + out + "}";
}

}  // namespace

std::string SweepIdentity::Text() const {
  std::string text = "numerics=" + std::to_string(numerics) + "\nbuild=" + build +
                     "\nseed=" + std::to_string(seed) + "\ntrials=" + std::to_string(trials) +
                     "\nshard=" + shard + "\ncolumns=" + columns + "\n";
  if (!adaptive.empty()) text += "adaptive=" + adaptive + "\n";
  for (size_t i = 0; i < cells.size(); ++i) text += "cell=" + cells[i] + "\t" + labels[i] + "\n";
  return text;
}

SweepIdentity SweepIdentity::FromText(const std::string& text) {
  SweepIdentity id;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // Read from a journal written by some other version, or damaged: a number that does not
    // parse is -1, which no config gives, so the difference is reported, not thrown.
    auto number = [](const std::string& text) -> long long {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      return text.empty() || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX ? -1 : v;
    };
    if (line.rfind("numerics=", 0) == 0)
      id.numerics = static_cast<int>(number(line.substr(9)));
    else if (line.rfind("build=", 0) == 0)
      id.build = line.substr(6);
    else if (line.rfind("seed=", 0) == 0) {
      char* end = nullptr;
      errno = 0;
      id.seed = std::strtoull(line.substr(5).c_str(), &end, 10);
      if (*end != '\0' || errno != 0) id.seed = UINT64_MAX;
    } else if (line.rfind("trials=", 0) == 0)
      id.trials = static_cast<int>(number(line.substr(7)));
    else if (line.rfind("shard=", 0) == 0)
      id.shard = line.substr(6);
    else if (line.rfind("columns=", 0) == 0)
      id.columns = line.substr(8);
    else if (line.rfind("adaptive=", 0) == 0)
      id.adaptive = line.substr(9);
    else if (line.rfind("cell=", 0) == 0) {
      const size_t tab = line.find('\t');
      id.cells.push_back(line.substr(5, tab - 5));
      id.labels.push_back(tab == std::string::npos ? "" : line.substr(tab + 1));
    }
  }
  return id;
}

namespace {

// The differences that make rows incomparable: numerics, build, seed, columns, search, shard.
void AddRowDifferences(const SweepIdentity& a, const SweepIdentity& b, const std::string& a_name,
                       const std::string& b_name,
                       const std::function<void(const std::string&)>& add) {
  // The config's side of a numerics version or a build is the running tool's.
  const std::string& b_tool = b_name == "the config" ? "this pmoe-sweep" : b_name;
  if (a.numerics != b.numerics)
    add(DescribeNumericsDifference(a.numerics, b.numerics, a_name, b_tool));
  if (a.build != b.build)
    add("computed by another build (" + DescribeBuildDifference(a.build, b.build, a_name, b_tool) +
        "): two builds may differ in the last bits of every trial, so their trials are not "
        "mixed; use the build that began the sweep");
  if (a.seed != b.seed)
    add("seed " + std::to_string(a.seed) + " in " + a_name + ", " + std::to_string(b.seed) +
        " in " + b_name);
}

void AddColumnsAndSearch(const SweepIdentity& a, const SweepIdentity& b, const std::string& a_name,
                         const std::string& b_name, bool ignore_shard,
                         const std::function<void(const std::string&)>& add) {
  if (a.columns != b.columns)
    add("the trial columns differ (" + ColumnDifference(a.columns, b.columns, a_name, b_name) +
        ")");
  if (a.adaptive != b.adaptive)
    add("adaptive search \"" + (a.adaptive.empty() ? "none" : a.adaptive) + "\" in " + a_name +
        ", \"" + (b.adaptive.empty() ? "none" : b.adaptive) + "\" in " + b_name);
  if (!ignore_shard && a.shard != b.shard)
    add("shard \"" + a.shard + "\" in " + a_name + ", \"" + b.shard + "\" in " + b_name);
}

// Labels of the cells of `a` that `b` lacks.
std::vector<std::string> CellsOnlyIn(const SweepIdentity& a, const SweepIdentity& b) {
  const std::set<std::string> in_b(b.cells.begin(), b.cells.end());
  std::vector<std::string> only;
  for (size_t i = 0; i < a.cells.size(); ++i)
    if (!in_b.count(a.cells[i])) only.push_back(a.labels[i]);
  return only;
}

}  // namespace

std::string DescribeDifference(const SweepIdentity& a, const SweepIdentity& b,
                               const std::string& a_name, const std::string& b_name,
                               bool ignore_shard) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  AddRowDifferences(a, b, a_name, b_name, add);
  if (a.trials != b.trials)
    add("trials " + std::to_string(a.trials) + " in " + a_name + ", " + std::to_string(b.trials) +
        " in " + b_name);
  AddColumnsAndSearch(a, b, a_name, b_name, ignore_shard, add);
  // Which parameters take other values: the most useful thing to say about a changed config.
  const auto values_a = ValuesByParameter(a.cells), values_b = ValuesByParameter(b.cells);
  for (const auto& [name, va] : values_a) {
    const auto it = values_b.find(name);
    if (it != values_b.end() && it->second != va)
      add(name + " = " + SetText(va) + " in " + a_name + ", " + SetText(it->second) + " in " +
          b_name);
  }
  const std::vector<std::string> only_a = CellsOnlyIn(a, b), only_b = CellsOnlyIn(b, a);
  if (!only_a.empty())
    add(std::to_string(only_a.size()) + " cells only in " + a_name + " (" + Examples(only_a) + ")");
  if (!only_b.empty())
    add(std::to_string(only_b.size()) + " cells only in " + b_name + " (" + Examples(only_b) + ")");
  if (out.empty() && a.cells != b.cells) add("the cells are in another order");
  return out;
}

std::string DescribeGrowthProblem(const SweepIdentity& held, const SweepIdentity& grown,
                                  const std::string& held_name, const std::string& grown_name,
                                  int held_rows_trials) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  AddRowDifferences(held, grown, held_name, grown_name, add);
  AddColumnsAndSearch(held, grown, held_name, grown_name, false, add);
  const int kept = held_rows_trials >= 0 ? std::min(held.trials, held_rows_trials) : held.trials;
  if (grown.trials < kept)
    add("trials " + std::to_string(kept) + " in " + held_name + ", " +
        std::to_string(grown.trials) + " in " + grown_name +
        " (a sweep grows, never shrinks: held trials are not dropped)");
  // A parameter whose held values are not all still asked for: a changed fixed parameter, or
  // an axis that lost values.
  const auto values_h = ValuesByParameter(held.cells), values_g = ValuesByParameter(grown.cells);
  for (const auto& [name, vh] : values_h) {
    const auto it = values_g.find(name);
    if (it == values_g.end() ||
        std::includes(it->second.begin(), it->second.end(), vh.begin(), vh.end()))
      continue;
    add(name + " = " + SetText(vh) + " in " + held_name + ", " + SetText(it->second) + " in " +
        grown_name);
  }
  const std::vector<std::string> only_held = CellsOnlyIn(held, grown);
  if (!only_held.empty())
    add(std::to_string(only_held.size()) + " cells only in " + held_name + " (" +
        Examples(only_held) + ")");
  return out;
}

std::string DescribeGrowth(const SweepIdentity& held, const SweepIdentity& grown, bool by_rounds) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  // A source deciding round by round (precision, adaptive) has a budget over all its cells, not
  // a count per cell: said as a total (issue 41), beside the per-cell count the file held.
  if (grown.trials != held.trials)
    add(by_rounds ? "trials decided round by round: a budget of " + std::to_string(grown.trials) +
                        " trials in all (" + std::to_string(held.trials) + " per cell held)"
                  : "trials per cell " + std::to_string(held.trials) + " -> " +
                        std::to_string(grown.trials));
  const std::vector<std::string> added = CellsOnlyIn(grown, held);
  if (!added.empty()) {
    std::string values;
    const auto values_h = ValuesByParameter(held.cells), values_g = ValuesByParameter(grown.cells);
    for (const auto& [name, vg] : values_g) {
      const auto it = values_h.find(name);
      std::set<std::string> fresh;
      for (const std::string& v : vg)
        if (it == values_h.end() || !it->second.count(v)) fresh.insert(v);
      if (!fresh.empty()) values += (values.empty() ? "" : ", ") + name + " += " + SetText(fresh);
    }
    add(std::to_string(added.size()) + " new cells" + (values.empty() ? "" : " (" + values + ")"));
  }
  return out;
}

}  // namespace pmoe
