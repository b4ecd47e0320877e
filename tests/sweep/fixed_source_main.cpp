// pmoe-sweep-fixed CONFIG.ini OUT.h5 PAIRS ROUND [CHECKPOINT_SECONDS]: runs the (cell, trial)
// pairs listed in the file PAIRS ("CELL_INDEX TRIAL" per line, cell indices into the config's
// grid) through the sweep runner, ROUND pairs per round: a work source the config does not
// name, for the tests of the runner's seam (kill and resume, rounds decided from stored rows).
#include <fstream>
#include <iostream>

#include "pmoe/core/errors.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"

namespace pmoe {
namespace {

// The first `round` listed pairs not yet stored, each round: what to run next depends on the
// stored rows alone, so a resumed run hands out the same rounds.
class FixedListSource : public WorkSource {
 public:
  FixedListSource(const std::vector<Cell>& cells, std::vector<WorkItem> items, size_t round)
      : cells_(cells), items_(std::move(items)), round_(round) {}

  std::vector<WorkItem> NextRound(const StoredRows& stored) override {
    std::vector<WorkItem> out;
    for (const WorkItem& item : items_)
      if (out.size() < round_ && !stored.Has(cells_[item.cell].id, item.trial)) out.push_back(item);
    ++rounds_;
    return out;
  }
  std::string Describe() const override { return std::to_string(items_.size()) + " listed pairs"; }
  std::string RoundNote() const override { return "round " + std::to_string(rounds_); }
  Bound MostWork() const override { return {items_.size(), 0.0, "the listed pairs"}; }

 private:
  const std::vector<Cell>& cells_;
  std::vector<WorkItem> items_;
  size_t round_;
  int rounds_ = 0;
};

}  // namespace
}  // namespace pmoe

int main(int argc, char** argv) {
  using namespace pmoe;
  if (argc < 5) {
    std::cerr << "usage: pmoe-sweep-fixed CONFIG.ini OUT.h5 PAIRS ROUND [CHECKPOINT_SECONDS]\n";
    return 2;
  }
  try {
    const SweepSetup setup = PrepareSweep(argv[1], argv[2], ShardSpec{});
    std::vector<WorkItem> items;
    std::ifstream pairs(argv[3]);
    for (size_t cell; pairs >> cell;) {
      int trial = 0;
      pairs >> trial;
      if (cell >= setup.cells.size()) throw ConfigError("no cell " + std::to_string(cell));
      items.push_back({cell, trial, 0.0});
    }
    FixedListSource source(setup.cells, items, std::stoul(argv[4]));
    RunOptions options;
    options.progress = false;
    if (argc > 5) options.checkpoint_seconds = std::stod(argv[5]);
    const RunReport report = RunSweep(setup, source, options, std::cerr);
    std::cout << report.held << " held, " << report.ran << " ran\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "pmoe-sweep-fixed: " << e.what() << "\n";
    return 2;
  }
}
