// pmoe-bench: the speed of the simulator on the benchmark cells of ../shared/peer/README.md
// (one thread, 50 fixed epochs, no early stop, evaluation on 2000 test samples) and the sweep
// engine's throughput on 1 and 2 threads. Prints a table, or --json for scripts.
//   build/sim/pmoe-bench [--cells S-sep,S-cnn] [--repeats 3]
//       [--sweep sweeps/configs/bench/phase_l.ini]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fma_peak.hpp"
#include "pmoe/core/build_info.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/sweep/sweep_runner.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

struct BenchCell {
  std::string name;
  TrialSpec spec;
};

TrialSpec CellSpec(const std::string& kind, int d, int N, int l, int k) {
  TrialSpec spec;
  spec.data.d = d;
  spec.N = N;
  spec.N_test = 2000;
  spec.model.kind = kind;
  spec.model.l = l;
  spec.model.k = k;
  spec.model.m = 40;
  spec.model.epochs = 50;
  spec.model.early_stop = false;
  return spec;
}

// Chen et al.'s experiment (MODEL.md §8), setting 1, cubic, 16000 + 16000 samples, a fixed
// number of full-batch steps (501 for the switch MoE of M = 8 experts of J = 16, 801 for the
// single model of J = 128): chen_peer.py's trial with --no-early-stop.
TrialSpec ChenCellSpec(const std::string& kind) {
  TrialSpec spec;
  spec.data.model = "cluster";
  spec.data.n = 4;
  spec.data.d = 50;
  spec.N = 16000;
  spec.N_test = 16000;
  spec.model.kind = kind;
  SetParam(spec, "model.activation", "cubic", "pmoe-bench");
  SetParam(spec, "model.stop_rule", "none", "pmoe-bench");
  return spec;
}

// The multiclass path (MODEL.md §7): a two-class cell through c outputs and the softmax loss
// (to hold against its binary cell), and c = 8 classes on p = 12 pattern sets.
TrialSpec Multiclass(TrialSpec spec, int classes) {
  spec.model.loss = "softmax";
  if (spec.model.kind == "separate") spec.model.k = 0;  // one expert per class
  if (classes > 2) {
    spec.data.c = classes;
    spec.data.p = 12;
  }
  return spec;
}

std::vector<BenchCell> AllCells() {
  return {{"S-sep", CellSpec("separate", 64, 500, 4, 2)},
          {"S-joint", CellSpec("joint", 64, 500, 6, 8)},
          {"S-cnn", CellSpec("cnn", 64, 500, 4, 2)},
          {"I-sep", CellSpec("separate", 784, 1000, 4, 2)},
          {"I-cnn", CellSpec("cnn", 784, 1000, 4, 2)},
          {"C-switch", ChenCellSpec("switch")},
          {"C-single", ChenCellSpec("single")},
          {"S-sep-mc2", Multiclass(CellSpec("separate", 64, 500, 4, 2), 2)},
          {"S-joint-mc2", Multiclass(CellSpec("joint", 64, 500, 6, 8), 2)},
          {"S-cnn-mc2", Multiclass(CellSpec("cnn", 64, 500, 4, 2), 2)},
          {"S-sep-c8", Multiclass(CellSpec("separate", 64, 500, 4, 2), 8)},
          {"S-joint-c8", Multiclass(CellSpec("joint", 64, 500, 6, 8), 8)},
          {"S-cnn-c8", Multiclass(CellSpec("cnn", 64, 500, 4, 2), 8)}};
}

struct CellTiming {
  std::string name;
  double trial_s = 0, data_s = 0, train_s = 0, eval_s = 0;  // medians over repeats
  double gflop = 0, gflops = 0, test_acc = 0;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

CellTiming TimeCell(const BenchCell& cell, int repeats) {
  RunTrial(cell.spec, 1000, 1);  // warm-up: page faults, caches
  std::vector<double> trial, data, train, eval, acc;
  for (int r = 0; r < repeats; ++r) {
    const TrialResult result = RunTrial(cell.spec, r, 1);
    trial.push_back((result.train_ms + result.eval_ms) / 1000);
    data.push_back(result.data_ms / 1000);
    train.push_back(result.train_ms / 1000);
    eval.push_back(result.eval_ms / 1000);
    acc.push_back(result.test_acc);
  }
  CellTiming t{cell.name, Median(trial), Median(data), Median(train), Median(eval)};
  // Nominal FLOPs as the model family counts them (family.hpp), at the cell's fixed epochs (its
  // expected epochs: the cap, with no early stop).
  const DataShape shape = DataFamilyOf(cell.spec).Shape(cell.spec);
  const ModelFamily& family = ModelFamilyOf(cell.spec);
  t.gflop = family.NominalFlops(cell.spec, shape, family.ExpectedEpochs(cell.spec)).total() / 1e9;
  t.gflops = t.gflop / t.trial_s;
  t.test_acc = Median(acc);
  return t;
}

struct SweepTiming {
  int threads = 0;
  size_t trials = 0;
  double seconds = 0, trials_per_s = 0;
};

SweepTiming TimeSweep(const std::string& config, int threads) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("pmoe-bench-" + std::to_string(getpid())))
          .string();
  std::filesystem::remove_all(dir);
  const SweepSetup setup = PrepareSweep(config, dir + "/bench.h5", {});
  RunOptions options;
  options.threads = threads;
  options.checkpoint_seconds = 1e9;
  options.progress = false;
  std::ostringstream log;
  const RunReport report = RunSweep(setup, options, log);
  std::filesystem::remove_all(dir);
  return {threads, report.ran, report.wall_seconds, report.ran / report.wall_seconds};
}

void PrintTable(const std::vector<CellTiming>& cells, const std::vector<SweepTiming>& sweeps,
                const std::string& sweep_config, const FmaPeak& peak) {
  std::printf("build: %s\nkernels running: %s (PMOE_KERNELS=avx2 or =portable for the others)\n",
              NumericsBuild().c_str(), KernelPathName(ActiveKernelPath()));
  std::printf("FMA peak of this core: %.1f GFLOP/s (%s)\n", peak.gflops, peak.how.c_str());
  std::printf("%-8s %10s %10s %8s %10s %10s %8s %9s %8s\n", "cell", "trial_s", "train_s", "eval_s",
              "data_s", "data/trial", "GFLOP", "GFLOP/s", "of peak");
  for (const CellTiming& c : cells)
    std::printf("%-8s %10.4f %10.4f %8.4f %10.4f %9.1f%% %8.3f %9.2f %7.1f%%\n", c.name.c_str(),
                c.trial_s, c.train_s, c.eval_s, c.data_s, 100 * c.data_s / c.trial_s, c.gflop,
                c.gflops, peak.gflops > 0 ? 100 * c.gflops / peak.gflops : 0.0);
  std::printf(
      "trial_s = training + evaluation (median); data_s = data generation, apart. FLOPs are\n"
      "nominal (2 x multiply-adds of the products, ReLU-skipped work included).\n");
  for (const SweepTiming& s : sweeps)
    std::printf("sweep %s on %d thread%s: %zu trials in %.2f s = %.2f trials/s\n",
                sweep_config.c_str(), s.threads, s.threads > 1 ? "s" : "", s.trials, s.seconds,
                s.trials_per_s);
  if (sweeps.size() == 2)
    std::printf("2 threads / 1 thread: %.2fx\n", sweeps[1].trials_per_s / sweeps[0].trials_per_s);
}

void PrintJson(const std::vector<CellTiming>& cells, const std::vector<SweepTiming>& sweeps,
               const std::string& sweep_config, const FmaPeak& peak) {
  JsonWriter w(std::cout);
  w.BeginObject()
      .Field("build", NumericsBuild())
      .Field("kernels", KernelPathName(ActiveKernelPath()))
      .Field("fma_peak_gflops", peak.gflops)
      .Field("fma_peak_how", peak.how)
      .Key("cells")
      .BeginObject();
  for (const CellTiming& c : cells)
    w.Key(c.name)
        .BeginObject()
        .Field("median_trial_s", c.trial_s)
        .Field("train_s", c.train_s)
        .Field("eval_s", c.eval_s)
        .Field("data_s", c.data_s)
        .Field("gflop", c.gflop)
        .Field("gflops", c.gflops)
        .Field("fraction_of_fma_peak", peak.gflops > 0 ? c.gflops / peak.gflops : 0.0)
        .Field("test_acc", c.test_acc)
        .EndObject();
  w.EndObject().Field("sweep_config", sweep_config).Key("sweeps").BeginArray();
  for (const SweepTiming& s : sweeps)
    w.BeginObject()
        .Field("threads", s.threads)
        .Field("trials", s.trials)
        .Field("seconds", s.seconds)
        .Field("trials_per_s", s.trials_per_s)
        .EndObject();
  w.EndArray().EndObject();
  std::cout << "\n";
}

constexpr const char* kUsage =
    "usage: pmoe-bench [--cells LIST] [--repeats R] [--sweep INI|none] [--json]\n"
    "  --cells LIST   comma-separated subset of S-sep,S-joint,S-cnn,I-sep,I-cnn (the default),\n"
    "                 C-switch,C-single (Chen et al.'s setting 1: 501 and 801 fixed steps),\n"
    "                 and the multiclass cells S-sep-mc2,S-joint-mc2,S-cnn-mc2 (two classes,\n"
    "                 softmax) and S-sep-c8,S-joint-c8,S-cnn-c8 (c = 8, p = 12)\n"
    "  --repeats R    timed trials per cell after one warm-up; medians are printed (default 3)\n"
    "  --sweep INI    sweep config timed on 1 and 2 threads (default\n"
    "                 sweeps/configs/bench/phase_l.ini, the published 150-epoch cap);\n"
    "                 none skips it\n"
    "  --json         one JSON object instead of the table\n"
    "One thread per trial, 50 fixed epochs, no early stop, 2000 test samples: the cells of\n"
    "../shared/peer/README.md. GFLOP/s count the models' nominal products (README, Speed);\n"
    "\"of peak\" is their fraction of this core's FMA peak, measured first (fma_peak.cpp).\n";

int Main(const std::vector<std::string>& args) {
  std::string cells_arg = "S-sep,S-joint,S-cnn,I-sep,I-cnn";
  std::string sweep = "sweeps/configs/bench/phase_l.ini";
  int repeats = 3;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw ConfigError("command line: " + args[i] + " needs a value");
      return args[++i];
    };
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (args[i] == "--cells")
      cells_arg = value();
    else if (args[i] == "--repeats")
      repeats = static_cast<int>(ParseIntegerAtLeast("command line", "--repeats", value(), 1));
    else if (args[i] == "--sweep")
      sweep = value();
    else if (args[i] == "--json")
      json = true;
    else
      throw ConfigError("command line: unexpected argument " + args[i] +
                        " (see pmoe-bench --help)");
  }
  const std::vector<BenchCell> all = AllCells();
  std::vector<BenchCell> chosen;
  std::stringstream names(cells_arg);
  for (std::string name; std::getline(names, name, ',');) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const BenchCell& c) { return c.name == name; });
    if (it == all.end())
      throw ConfigError("command line: --cells: unknown cell \"" + name +
                        "\" (expected some of S-sep,S-joint,S-cnn,I-sep,I-cnn,C-switch,"
                        "C-single and the multiclass cells of --help)");
    chosen.push_back(*it);
  }
  const FmaPeak peak = MeasureFmaPeak();
  std::vector<CellTiming> timings;
  for (const BenchCell& cell : chosen) timings.push_back(TimeCell(cell, repeats));
  std::vector<SweepTiming> sweeps;
  if (sweep != "none")
    for (int threads : {1, 2}) sweeps.push_back(TimeSweep(sweep, threads));
  if (json)
    PrintJson(timings, sweeps, sweep, peak);
  else
    PrintTable(timings, sweeps, sweep, peak);
  return 0;
}

}  // namespace
}  // namespace pmoe

int main(int argc, char** argv) {
  try {
    return pmoe::Main(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const pmoe::ConfigError& e) {
    std::cerr << "pmoe-bench: error: " << e.what() << "\n";
  }
  return 2;
}
