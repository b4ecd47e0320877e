// pmoe-bench: the speed of the simulator on the benchmark cells of ../shared/peer/README.md
// (one thread, 50 fixed epochs, no early stop, evaluation on 2000 test samples) and the sweep
// engine's throughput on 1 and 2 threads. The cells alternate, round after round, until their
// medians are stable (alternating_rounds.hpp), and every output names the CPU (cpu_identity.hpp).
// Prints a table, --json for scripts, or --markdown for docs/results/benchmarks.md.
//   build/sweeps/bench/pmoe-bench [--cells S-sep,S-cnn] [--repeats 5] [--sweep
//   sweeps/bench/configs/phase_l.ini]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "alternating_rounds.hpp"
#include "cpu_identity.hpp"
#include "fma_peak.hpp"
#include "memory_probe.hpp"
#include "pmoe/core/build_info.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/json_writer.hpp"
#include "pmoe/models/kernel_path.hpp"
#include "pmoe/sweep/adaptive/adaptive_section.hpp"
#include "pmoe/sweep/run/sweep_runner.hpp"
#include "pmoe/trial/trial.hpp"

namespace pmoe {
namespace {

struct BenchCell {
  std::string name;
  TrialSpec spec;
};

TrialSpec CellSpec(const std::string& kind, int d, int N, int l, int k) {
  TrialSpec spec;
  SetParamValue(spec, "data.d", d);
  spec.N = N;
  spec.N_test = 2000;
  spec.model.kind = kind;
  SetParamValue(spec, "model.l", l);
  SetParamValue(spec, "model.k", k);
  SetParamValue(spec, "model.m", 40);
  SetParamValue(spec, "model.epochs", 50);
  SetParamValue(spec, "model.early_stop", false);
  return spec;
}

// Chen et al.'s experiment (MODEL.md §8), setting 1, cubic, 16000 + 16000 samples, a fixed
// number of full-batch steps (501 for the switch MoE of M = 8 experts of J = 16, 801 for the
// single model of J = 128): chen_peer.py's trial with --no-early-stop.
TrialSpec ChenCellSpec(const std::string& kind) {
  TrialSpec spec;
  spec.data.model = "cluster";
  SetParamValue(spec, "data.n", 4);
  SetParamValue(spec, "data.d", 50);
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
  SetParamValue(spec, "model.loss", "softmax");
  if (spec.model.kind == "separate") SetParamValue(spec, "model.k", 0);  // one expert per class
  if (classes > 2) {
    SetParamValue(spec, "data.c", classes);
    SetParamValue(spec, "data.p", 12);
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
  double trial_s = 0, data_s = 0, train_s = 0, eval_s = 0;  // medians over the rounds
  double gflop = 0, gflops = 0, test_acc = 0;
  int rounds = 0;
  double range = 0;     // (max - min) / median of trial_s over the rounds
  double halves = 0;    // the even and odd rounds' medians of trial_s apart, relative
  bool stable = false;  // halves <= the tolerance (alternating_rounds.hpp)
};

// One cell's timed trials, one per round.
struct CellRounds {
  const BenchCell* cell = nullptr;
  std::vector<double> trial, data, train, eval, acc;
  void Run(int round) {
    const TrialResult result = RunTrial(cell->spec, round, 1);
    trial.push_back((result.train_ms + result.eval_ms) / 1000);
    data.push_back(result.data_ms / 1000);
    train.push_back(result.train_ms / 1000);
    eval.push_back(result.eval_ms / 1000);
    acc.push_back(result.test_acc);
  }
  CellTiming Summary(const StabilityRule& rule) const {
    CellTiming t{cell->name, MedianOf(trial), MedianOf(data), MedianOf(train), MedianOf(eval)};
    // Nominal FLOPs as the model family counts them (family.hpp), at the cell's fixed epochs
    // (its expected epochs: the cap, with no early stop).
    const DataShape shape = DataFamilyOf(cell->spec).Shape(cell->spec);
    const ModelFamily& family = ModelFamilyOf(cell->spec);
    t.gflop =
        family.NominalFlops(cell->spec, shape, family.ExpectedEpochs(cell->spec)).total() / 1e9;
    t.gflops = t.gflop / t.trial_s;
    t.test_acc = MedianOf(acc);
    t.rounds = static_cast<int>(trial.size());
    t.range = RelativeRange(trial);
    t.halves = HalvesDisagreement(trial);
    t.stable = IsStable(trial, rule);
    return t;
  }
};

// The FMA peak, measured once per round among the cells, so that "of peak" compares figures
// taken in the same minutes.
struct PeakRounds {
  std::vector<double> gflops;
  std::string how;
};

double LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double one_minute = NAN;
  in >> one_minute;
  return one_minute;
}

// What a run measured and where: the CPU, the machine's load, the rounds and whether they
// settled.
struct RunContext {
  CpuIdentity cpu;
  FmaPeak peak;  // the median of the rounds' peaks
  double peak_range = 0;
  MemoryReading memory;     // the medians of the rounds' readings
  double memory_range = 0;  // of the read rate
  bool peak_stable = false;
  int rounds = 0;
  bool all_stable = false;
  double load_start = 0, load_end = 0, seconds = 0;
  StabilityRule rule;
  std::string date;  // UTC, ISO 8601
};

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
                const std::string& sweep_config, const RunContext& run) {
  std::printf("build: %s\nkernels running: %s (PMOE_KERNELS=avx2 or =portable for the others)\n",
              NumericsBuild().c_str(), KernelPathName(ActiveKernelPath()));
  std::printf("CPU: %s\n", run.cpu.Describe().c_str());
  std::printf("date: %s; load average %.2f at the start, %.2f at the end (%.0f s)\n",
              run.date.c_str(), run.load_start, run.load_end, run.seconds);
  std::printf("FMA peak of this core: %.1f GFLOP/s (%s; median of %d rounds, range %.1f%%)\n",
              run.peak.gflops, run.peak.how.c_str(), run.rounds, 100 * run.peak_range);
  std::printf(
      "memory: a dependent load %.0f ns, reading in order %.1f GB/s (medians; range of the reads\n"
      "%.1f%%): runs whose memory reads differ came from different machine states\n",
      run.memory.load_ns, run.memory.read_gbs, 100 * run.memory_range);
  std::printf("%-11s %9s %9s %8s %9s %10s %8s %8s %8s %6s %6s %7s\n", "cell", "trial_s", "train_s",
              "eval_s", "data_s", "data/trial", "GFLOP", "GFLOP/s", "of peak", "rounds", "range",
              "stable");
  for (const CellTiming& c : cells)
    std::printf("%-11s %9.4f %9.4f %8.4f %9.4f %9.1f%% %8.3f %8.2f %7.1f%% %6d %5.1f%% %7s\n",
                c.name.c_str(), c.trial_s, c.train_s, c.eval_s, c.data_s,
                100 * c.data_s / c.trial_s, c.gflop, c.gflops,
                run.peak.gflops > 0 ? 100 * c.gflops / run.peak.gflops : 0.0, c.rounds,
                100 * c.range, c.stable ? "yes" : "NO");
  std::printf(
      "trial_s = training + evaluation, median over the rounds (each round times every cell once,\n"
      "alternating direction); data_s = data generation, apart. FLOPs are nominal (2 x\n"
      "multiply-adds of the products, ReLU-skipped work included). range = (max - min) / median.\n"
      "stable: the medians of the even and of the odd rounds within %.1f%% of each other.\n",
      100 * run.rule.tolerance);
  if (!run.all_stable)
    std::printf(
        "NOT STABLE: a cell marked NO (or the FMA peak) would likely move if measured again; this\n"
        "machine was busy or its clock varied. Run again on a quiet machine, or with more rounds\n"
        "(--max-rounds, --budget).\n");
  for (const SweepTiming& s : sweeps)
    std::printf("sweep %s on %d thread%s: %zu trials in %.2f s = %.2f trials/s\n",
                sweep_config.c_str(), s.threads, s.threads > 1 ? "s" : "", s.trials, s.seconds,
                s.trials_per_s);
  if (sweeps.size() == 2)
    std::printf("2 threads / 1 thread: %.2fx\n", sweeps[1].trials_per_s / sweeps[0].trials_per_s);
}

// Rows for the benchmark log, docs/results/benchmarks.md.
void PrintMarkdown(const std::vector<CellTiming>& cells, const RunContext& run) {
  std::printf("### %s, %s\n\n", run.date.c_str(), run.cpu.Describe().c_str());
  std::printf(
      "Build %s, kernels %s; FMA peak %.1f GFLOP/s (median of %d rounds, range %.1f%%); memory:\n"
      "a dependent load %.0f ns, reading %.1f GB/s; load average %.2f at the start, %.2f at the\n"
      "end; %s.\n\n",
      NumericsBuild().c_str(), KernelPathName(ActiveKernelPath()), run.peak.gflops, run.rounds,
      100 * run.peak_range, run.memory.load_ns, run.memory.read_gbs, run.load_start, run.load_end,
      run.all_stable ? "every median stable" : "NOT every median stable");
  std::printf("| cell | trial s | GFLOP/s | of FMA peak | rounds | range | stable |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const CellTiming& c : cells)
    std::printf("| %s | %.4g | %.1f | %.1f %% | %d | %.1f %% | %s |\n", c.name.c_str(), c.trial_s,
                c.gflops, run.peak.gflops > 0 ? 100 * c.gflops / run.peak.gflops : 0.0, c.rounds,
                100 * c.range, c.stable ? "yes" : "no");
}

void PrintJson(const std::vector<CellTiming>& cells, const std::vector<SweepTiming>& sweeps,
               const std::string& sweep_config, const RunContext& run) {
  JsonWriter w(std::cout);
  w.BeginObject()
      .Field("build", NumericsBuild())
      .Field("kernels", KernelPathName(ActiveKernelPath()))
      .Field("date", run.date)
      .Key("cpu")
      .BeginObject()
      .Field("model_name", run.cpu.model_name)
      .Field("vendor", run.cpu.vendor)
      .Field("family", run.cpu.family)
      .Field("model", run.cpu.model)
      .Field("logical_cpus", run.cpu.logical_cpus)
      .EndObject()
      .Field("load_average_start", run.load_start)
      .Field("load_average_end", run.load_end)
      .Field("rounds", run.rounds)
      .Field("stable", run.all_stable)
      .Field("stability_tolerance", run.rule.tolerance)
      .Field("fma_peak_gflops", run.peak.gflops)
      .Field("fma_peak_range", run.peak_range)
      .Field("fma_peak_how", run.peak.how)
      .Field("memory_load_ns", run.memory.load_ns)
      .Field("memory_read_gbs", run.memory.read_gbs)
      .Field("memory_read_range", run.memory_range)
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
        .Field("fraction_of_fma_peak", run.peak.gflops > 0 ? c.gflops / run.peak.gflops : 0.0)
        .Field("test_acc", c.test_acc)
        .Field("rounds", c.rounds)
        .Field("range", c.range)
        .Field("halves_disagreement", c.halves)
        .Field("stable", c.stable)
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
    "usage: pmoe-bench [--cells LIST] [--repeats R] [--max-rounds R] [--tolerance PCT]\n"
    "                  [--budget SECONDS] [--sweep INI|none] [--json | --markdown]\n"
    "  --cells LIST       comma-separated subset of S-sep,S-joint,S-cnn,I-sep,I-cnn (the\n"
    "                     default), C-switch,C-single (Chen et al.'s setting 1: 501 and 801 fixed\n"
    "                     steps), and the multiclass cells S-sep-mc2,S-joint-mc2,S-cnn-mc2 (two\n"
    "                     classes, softmax) and S-sep-c8,S-joint-c8,S-cnn-c8 (c = 8, p = 12)\n"
    "  --repeats R        at least R rounds (default 5); a round times every cell once and the\n"
    "                     FMA peak, alternating the order, after one warm-up trial per cell\n"
    "  --max-rounds R     at most R rounds (default 15): rounds go on until every median is\n"
    "                     stable, i.e. the even and odd rounds' medians agree within --tolerance\n"
    "  --tolerance PCT    that agreement, in percent (default 3)\n"
    "  --budget SECONDS   no new round after this many seconds (default 480)\n"
    "  --sweep INI        sweep config timed on 1 and 2 threads (default\n"
    "                     sweeps/bench/configs/phase_l.ini, the published 150-epoch cap);\n"
    "                     none skips it\n"
    "  --json             one JSON object instead of the table\n"
    "  --markdown         rows for the benchmark log, docs/results/benchmarks.md\n"
    "One thread per trial, 50 fixed epochs, no early stop, 2000 test samples: the cells of\n"
    "../shared/peer/README.md. GFLOP/s count the models' nominal products (2 FLOPs per\n"
    "multiply-add, docs/results/benchmarks.md); \"of peak\" is their fraction of this core's FMA\n"
    "peak (fma_peak.cpp), measured in every round: on the vectors the kernels run on, so with\n"
    "PMOE_KERNELS=avx2 on an AVX-512 CPU the 256-bit peak (with a PMOE_MARCH=haswell build, a\n"
    "stand-in for a CPU without AVX-512).\n"
    "The CPU (model name, family, model, as lscpu names them) heads every output: figures from\n"
    "different CPUs are not comparable.\n";

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

int Main(const std::vector<std::string>& args) {
  std::string cells_arg = "S-sep,S-joint,S-cnn,I-sep,I-cnn",
              sweep = "sweeps/bench/configs/phase_l.ini";
  StabilityRule rule;
  int max_rounds = 15;
  double budget_s = 480;
  bool json = false, markdown = false;
  for (size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw ConfigError("command line: " + args[i] + " needs a value");
      return args[++i];
    };
    auto positive = [&](const std::string& key) {
      const std::string text = value();
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(v > 0) || !std::isfinite(v))
        throw ConfigError("command line: " + key + " = \"" + text +
                          "\": expected a positive number");
      return v;
    };
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (args[i] == "--cells")
      cells_arg = value();
    else if (args[i] == "--repeats")
      rule.min_rounds =
          static_cast<int>(ParseIntegerAtLeast("command line", "--repeats", value(), 1));
    else if (args[i] == "--max-rounds")
      max_rounds =
          static_cast<int>(ParseIntegerAtLeast("command line", "--max-rounds", value(), 1));
    else if (args[i] == "--tolerance")
      rule.tolerance = positive("--tolerance") / 100;
    else if (args[i] == "--budget")
      budget_s = positive("--budget");
    else if (args[i] == "--sweep")
      sweep = value();
    else if (args[i] == "--json")
      json = true;
    else if (args[i] == "--markdown")
      markdown = true;
    else
      throw ConfigError("command line: unexpected argument " + args[i] +
                        " (see pmoe-bench --help)");
  }
  if (json && markdown) throw ConfigError("command line: --json and --markdown exclude each other");
  max_rounds = std::max(max_rounds, rule.min_rounds);
  const std::vector<BenchCell> all = AllCells();
  std::vector<CellRounds> rounds;
  std::stringstream names(cells_arg);
  for (std::string name; std::getline(names, name, ',');) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const BenchCell& c) { return c.name == name; });
    if (it == all.end())
      throw ConfigError("command line: --cells: unknown cell \"" + name +
                        "\" (expected some of S-sep,S-joint,S-cnn,I-sep,I-cnn,C-switch,"
                        "C-single and the multiclass cells of --help)");
    rounds.emplace_back();
    rounds.back().cell = &*it;
  }
  RunContext run;
  run.cpu = ReadCpuIdentity();
  run.rule = rule;
  run.date = UtcNow();
  run.load_start = LoadAverage();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (CellRounds& cell : rounds) RunTrial(cell.cell->spec, 1000, 1);  // warm-up: pages, caches
  PeakRounds peaks;
  MemoryProbe memory;
  std::vector<double> load_ns, read_gbs;
  // The peak of the vectors the kernels run on: with PMOE_KERNELS=avx2 (or portable) on an
  // AVX-512 CPU, the 256-bit one.
  const bool avx512_kernels = ActiveKernelPath() == KernelPath::kAvx512;
  for (int round = 0; round < max_rounds; ++round) {
    const FmaPeak peak = MeasureFmaPeak(avx512_kernels);
    peaks.gflops.push_back(peak.gflops);
    peaks.how = peak.how;
    const MemoryReading reading = memory.Measure();
    load_ns.push_back(reading.load_ns);
    read_gbs.push_back(reading.read_gbs);
    // Forward on even rounds, backward on odd ones: a drift within a round falls on both ends.
    for (size_t c = 0; c < rounds.size(); ++c)
      rounds[round % 2 ? rounds.size() - 1 - c : c].Run(round);
    run.rounds = round + 1;
    bool stable = IsStable(peaks.gflops, rule);
    for (const CellRounds& cell : rounds) stable = stable && IsStable(cell.trial, rule);
    run.all_stable = stable;
    if (stable || elapsed() > budget_s) break;
  }
  run.peak = {MedianOf(peaks.gflops), peaks.how};
  run.peak_range = RelativeRange(peaks.gflops);
  run.peak_stable = IsStable(peaks.gflops, rule);
  run.memory = {MedianOf(load_ns), MedianOf(read_gbs)};
  run.memory_range = RelativeRange(read_gbs);
  std::vector<CellTiming> timings;
  for (const CellRounds& cell : rounds) timings.push_back(cell.Summary(rule));
  run.seconds = elapsed();
  run.load_end = LoadAverage();
  std::vector<SweepTiming> sweeps;
  if (sweep != "none")
    for (int threads : {1, 2}) sweeps.push_back(TimeSweep(sweep, threads));
  if (json)
    PrintJson(timings, sweeps, sweep, run);
  else if (markdown)
    PrintMarkdown(timings, run);
  else
    PrintTable(timings, sweeps, sweep, run);
  return 0;
}

}  // namespace
}  // namespace pmoe

int main(int argc, char** argv) {
  pmoe::RegisterAdaptiveSearch();  // --sweep times an [adaptive] config as pmoe-sweep runs it
  try {
    return pmoe::Main(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const pmoe::ConfigError& e) {
    std::cerr << "pmoe-bench: error: " << e.what() << "\n";
  }
  return 2;
}
