// Per-cell aggregation of the trial records.
#include "pmoe/analysis/cell_summary.hpp"

#include <cmath>

namespace pmoe {

std::vector<CellSummary> SummarizeCells(const Results& results) {
  const size_t cells = results.cells.size();
  std::vector<CellSummary> out(cells);
  std::vector<std::vector<double>> acc(cells), train(cells), hit(cells), pos(cells), neg(cells),
      epochs(cells);
  const size_t metrics = results.metrics.size();
  std::vector<std::vector<std::vector<double>>> values(cells,
                                                       std::vector<std::vector<double>>(metrics));
  for (const TrialRecord& t : results.trials) {
    CellSummary& s = out[t.cell];
    ++s.trials;
    s.successes += t.success;
    if (t.status == 1) ++s.diverged;
    if (t.status == 2) ++s.infeasible;
    if (t.status == 3) ++s.error;
    if (!(t.status == 0 && t.zero_train_error)) {
      if (t.status == 0 && t.stop_reason == 2)
        ++s.stopped_epoch_cap;
      else if (t.status == 0 && t.stop_reason == 3)
        ++s.stopped_step_cap;
      else
        ++s.stopped_other;
    }
    if (t.status != 0) continue;
    ++s.ok;
    s.converged += t.zero_train_error;
    for (size_t m = 0; m < metrics; ++m)
      if (!std::isnan(t.metrics[m])) values[t.cell][m].push_back(t.metrics[m]);
    acc[t.cell].push_back(t.test_acc);
    train[t.cell].push_back(t.train_acc);
    hit[t.cell].push_back(t.router_hit);
    pos[t.cell].push_back(t.router_hit_pos);
    neg[t.cell].push_back(t.router_hit_neg);
    epochs[t.cell].push_back(t.epochs);
  }
  for (size_t c = 0; c < cells; ++c) {
    CellSummary& s = out[c];
    s.success_interval = WilsonInterval(s.successes, s.trials);
    s.test_acc = MeanSd(acc[c]);
    s.train_acc = MeanSd(train[c]);
    s.router_hit = MeanSd(hit[c]);
    s.router_hit_pos = MeanSd(pos[c]);
    s.router_hit_neg = MeanSd(neg[c]);
    s.epochs = MeanSd(epochs[c]);
    for (size_t m = 0; m < metrics; ++m) s.metrics.push_back(MeanSd(values[c][m]));
  }
  return out;
}

}  // namespace pmoe
