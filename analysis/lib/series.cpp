// Series of cells for sample complexity: all parameters but N and the axis fixed, one point per
// axis value holding its cells sorted by N. A CNN in a sweep over l stands at every value of l.
#include "pmoe/analysis/series.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include "pmoe/core/param_table.hpp"

namespace pmoe {
namespace {

// Which parameters each model kind reads, as the cells' keys say (a key holds exactly the
// parameters its families read: the families' declarations, recorded in the file). A parameter a
// kind does not read neither names its series nor stops it from pairing with another model's.
class KindReads {
 public:
  explicit KindReads(const Results& results) {
    std::vector<std::map<std::string, std::string>> params;
    for (const CellRecord& cell : results.cells) {
      for (const auto& [name, value] : cell.params) reads_[cell.Text("model.kind")].insert(name);
      params.push_back(cell.params);
    }
    per_kind_ = ParamsSetPerKind(params);
  }
  bool Reads(const std::string& kind, const std::string& param) const {
    const auto it = reads_.find(kind);
    return it != reads_.end() && it->second.count(param) > 0;
  }
  // Read by some model kind of the results and not by another: left out when pairing series of
  // different models (the CNN reads neither l, k, routers nor gating).
  bool ModelSpecific(const std::string& param) const {
    size_t readers = 0;
    for (const auto& [kind, params] : reads_) readers += params.count(param);
    return readers > 0 && readers < reads_.size();
  }
  // One value per model kind (a [model.cnn] max_steps = 200000 beside pMoE's 50000): a setting
  // of each model, not a design to pair by, so CNN and pMoE series are paired across it.
  bool SetPerKind(const std::string& param) const { return per_kind_.count(param) > 0; }

 private:
  std::map<std::string, std::set<std::string>> reads_;
  std::set<std::string> per_kind_;
};

// Whether `param` follows the axis: in the cells that hold both, each axis value comes with one
// value of `param`, and both take at least two values there. Such a parameter (Lemma 4.1's router
// sample, model.router_samples = 1.5625 * ${data.n} * ${data.n}, over data.n; a zip of the axis
// with another parameter) moves with the axis instead of beside it: naming series by it would
// leave one point per series, and no curve over the axis. One that keeps one value wherever the
// axis is read (the model kind of the cells that read l) does not follow it; nor does the model
// kind ever, whose series must never merge.
bool FollowsAxis(const Results& results, const std::string& axis, const std::string& param) {
  if (param == "model.kind") return false;
  std::map<std::string, std::string> value_at;
  std::set<std::string> values;
  for (const CellRecord& cell : results.cells) {
    if (!cell.params.count(axis) || !cell.params.count(param)) continue;
    const auto [it, fresh] = value_at.emplace(cell.Text(axis), cell.Text(param));
    if (!fresh && it->second != cell.Text(param)) return false;
    values.insert(cell.Text(param));
  }
  return value_at.size() >= 2 && values.size() >= 2;
}

// The swept parameters that follow the axis (FollowsAxis): they name no series.
std::set<std::string> AxisFollowers(const Results& results, const std::string& axis,
                                    const std::vector<std::string>& swept) {
  std::set<std::string> following;
  for (const std::string& p : swept)
    if (!axis.empty() && p != "N" && p != axis && FollowsAxis(results, axis, p))
      following.insert(p);
  return following;
}

}  // namespace

// `defining`: the parameters a derived axis is made of (n and l of n/l), which then name no
// series either (each series would hold one point otherwise).
std::vector<Series> BuildSeries(const Results& results, const std::string& axis,
                                const std::vector<std::string>& defining) {
  const std::vector<std::string> swept = results.SweptParameters();
  if (std::find(swept.begin(), swept.end(), "N") == swept.end())
    throw std::invalid_argument("the cells do not vary N: sample complexity needs several N");
  // The axis values the cells that read the axis take: a cell whose families do not read it
  // (a CNN in a sweep over l) stands at every one of them, the same trials each time.
  std::vector<std::string> axis_texts;
  for (const CellRecord& cell : results.cells)
    if (!axis.empty() && cell.params.count(axis) &&
        std::find(axis_texts.begin(), axis_texts.end(), cell.Text(axis)) == axis_texts.end())
      axis_texts.push_back(cell.Text(axis));
  if (!axis.empty() && axis_texts.empty())
    throw std::invalid_argument("no parameter \"" + axis + "\" in the results");
  for (const std::string& text : axis_texts) {
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0')
      throw std::invalid_argument(
          axis + " is not a numeric axis (it takes the value \"" + text +
          "\"): sample "
          "complexity runs over a number such as l, k or n; series are formed per " +
          axis + " already, without --over");
  }
  const KindReads reads(results);
  const std::set<std::string> following = AxisFollowers(results, axis, swept);
  std::vector<Series> series;
  std::map<std::string, size_t> index;
  for (size_t c = 0; c < results.cells.size(); ++c) {
    const CellRecord& cell = results.cells[c];
    std::string label, others;
    const std::string kind = cell.Text("model.kind");
    for (const std::string& p : swept) {
      if (p == "N" || p == axis || !reads.Reads(kind, p) || following.count(p) ||
          std::find(defining.begin(), defining.end(), p) != defining.end())
        continue;
      const std::string part = p + "=" + cell.Text(p);
      label += (label.empty() ? "" : ", ") + part;
      if (p != "model.kind" && !reads.ModelSpecific(p) && !reads.SetPerKind(p))
        others += (others.empty() ? "" : ", ") + part;
    }
    if (label.empty()) label = "all";
    auto [it, fresh] = index.emplace(label, series.size());
    if (fresh) series.push_back({label, cell.Text("model.kind"), others, {}});
    Series& s = series[it->second];
    const bool reads_axis = axis.empty() || cell.params.count(axis);
    const std::vector<std::string> texts = axis.empty() ? std::vector<std::string>{""}
                                           : reads_axis ? std::vector<std::string>{cell.Text(axis)}
                                                        : axis_texts;
    for (const std::string& text : texts) {
      auto point = std::find_if(s.points.begin(), s.points.end(),
                                [&](const AxisPoint& p) { return p.text == text; });
      if (point == s.points.end()) {
        char* end = nullptr;
        const double value = axis.empty() ? NAN : std::strtod(text.c_str(), &end);
        s.points.push_back({axis.empty() || *end != '\0' ? NAN : value, text, {}, {}});
        point = s.points.end() - 1;
      }
      // Two cells at one (axis value, N) of a series happen only on a derived axis (n/l = 2 at
      // n = 8, l = 4 and at n = 16, l = 8): pooling them would mix designs, so it is refused.
      for (size_t other : point->cells)
        if (results.cells[other].Number("N") == cell.Number("N"))
          throw std::invalid_argument(
              axis + " = " + text + " at N = " + results.cells[other].Text("N") +
              " holds two cells of series " + label + " (\"" + results.cells[other].label +
              "\" and \"" + cell.label +
              "\"): a derived axis needs one cell per value and N "
              "in a series; link its parameters in the sweep (a zip, or a rule such as "
              "model.l = ${data.n} / 4), or keep a part of the results (--from/--to)");
      const bool all_patches = cell.Number("model.l") == cell.Number("data.n");
      point->all_patches = (point->cells.empty() || point->all_patches) && all_patches;
      point->cells.push_back(c);
      point->N.push_back(cell.Number("N"));
    }
  }
  for (Series& s : series) {
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const AxisPoint& a, const AxisPoint& b) { return a.value < b.value; });
    for (AxisPoint& p : s.points) {
      std::vector<size_t> order(p.cells.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p.N[a] < p.N[b]; });
      AxisPoint sorted{p.value, p.text, {}, {}, p.all_patches};
      for (size_t i : order) {
        sorted.cells.push_back(p.cells[i]);
        sorted.N.push_back(p.N[i]);
      }
      p = sorted;
    }
  }
  return series;
}

}  // namespace pmoe
