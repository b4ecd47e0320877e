// Mean ± sd over the finished trials of one cell, as text for people or JSON for scripts.
#include "summary.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "pmoe/core/param_table.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/json_writer.hpp"

namespace pmoe {
namespace {

struct MeanSd {
  double mean = NAN, sd = NAN;
  int count = 0;
};

// Over the trials with status ok and a finite value of `field`.
MeanSd Moments(const std::vector<TrialResult>& results,
               const std::function<double(const TrialResult&)>& field) {
  double sum = 0, sum2 = 0;
  MeanSd m;
  for (const auto& r : results) {
    const double v = field(r);
    if (r.status != TrialStatus::kOk || !std::isfinite(v)) continue;
    sum += v;
    sum2 += v * v;
    ++m.count;
  }
  if (m.count == 0) return m;
  m.mean = sum / m.count;
  m.sd = m.count > 1 ? std::sqrt(std::max(0.0, (sum2 - sum * m.mean) / (m.count - 1))) : 0.0;
  return m;
}

std::string Format(const MeanSd& m, const char* fmt) {
  if (m.count == 0) return "-";
  char buf[96];
  std::string f = std::string(fmt) + " ± " + fmt;
  std::snprintf(buf, sizeof buf, f.c_str(), m.mean, m.sd);
  return buf;
}

struct Counts {
  int ok = 0, diverged = 0, infeasible = 0, error = 0, success = 0, converged = 0;
};

Counts Count(const std::vector<TrialResult>& results) {
  Counts c;
  for (const auto& r : results) {
    c.ok += r.status == TrialStatus::kOk;
    c.diverged += r.status == TrialStatus::kDiverged;
    c.infeasible += r.status == TrialStatus::kInfeasible;
    c.error += r.status == TrialStatus::kError;
    c.success += r.success;
    c.converged += r.status == TrialStatus::kOk && r.zero_train_error;
  }
  return c;
}

using Field = std::function<double(const TrialResult&)>;
const std::vector<std::pair<std::string, Field>>& CoreFields() {
  static const std::vector<std::pair<std::string, Field>> fields = {
      {"test_acc", [](const TrialResult& r) { return r.test_acc; }},
      {"train_acc", [](const TrialResult& r) { return r.train_acc; }},
      {"train_loss", [](const TrialResult& r) { return r.train_loss; }},
      {"epochs", [](const TrialResult& r) { return static_cast<double>(r.epochs); }},
      {"steps", [](const TrialResult& r) { return static_cast<double>(r.steps); }},
      {"wall_ms", [](const TrialResult& r) { return r.wall_ms; }},
      {"data_ms", [](const TrialResult& r) { return r.data_ms; }},
      {"train_ms", [](const TrialResult& r) { return r.train_ms; }},
      {"eval_ms", [](const TrialResult& r) { return r.eval_ms; }},
  };
  return fields;
}

Field MetricField(const std::string& name) {
  return [name](const TrialResult& r) { return r.metrics.Get(name); };
}

// The metrics the cell's families declare (family.hpp), in declaration order.
std::vector<MetricInfo> CellMetrics(const TrialSpec& spec) { return MetricsOf({&spec}); }

// "zero_train_error 18, epoch_cap 2" over the trials that trained.
std::string StopReasons(const std::vector<TrialResult>& results) {
  std::map<std::string, int> counts;
  for (const auto& r : results)
    if (r.stop != StopReason::kNone) ++counts[StopReasonName(r.stop)];
  std::string out;
  for (const auto& [name, n] : counts)
    out += (out.empty() ? "" : ", ") + name + " " + std::to_string(n);
  return out.empty() ? "-" : out;
}

void WriteTrial(JsonWriter& json, const TrialSpec& spec, const TrialResult& r) {
  json.BeginObject()
      .Field("trial", r.trial)
      .Field("data_seed", static_cast<unsigned long long>(r.seeds.data))
      .Field("init_seed", static_cast<unsigned long long>(r.seeds.init))
      .Field("status", StatusName(r.status))
      .Field("message", r.message)
      .Field("success", r.success)
      .Field("test_acc", r.test_acc)
      .Field("train_acc", r.train_acc)
      .Field("train_loss", r.train_loss)
      .Field("epochs", r.epochs)
      .Field("steps", r.steps)
      .Field("stop_reason", StopReasonName(r.stop))
      .Field("zero_train_error", r.zero_train_error);
  json.Key("train_class_counts").BeginArray();
  for (int count : r.class_counts) json.Value(count);
  json.EndArray();
  for (const MetricInfo& m : CellMetrics(spec)) {
    if (m.type != ColumnType::kF64List) {
      json.Field(m.name, r.metrics.Get(m.name));
      continue;
    }
    json.Key(m.name).BeginArray();
    for (double v : r.metrics.GetList(m.name)) json.Value(v);
    json.EndArray();
  }
  json.Field("data_ms", r.data_ms)
      .Field("train_ms", r.train_ms)
      .Field("eval_ms", r.eval_ms)
      .Field("wall_ms", r.wall_ms)
      .EndObject();
}

}  // namespace

void PrintSummary(std::ostream& out, const SimOptions& o, const std::vector<TrialResult>& results,
                  double elapsed_s) {
  const TrialSpec& s = o.spec;
  const Counts c = Count(results);
  char line[512];
  // The cell as its families read it: every parameter they read but the defaults' noise.
  std::string read;
  for (const ParamInfo& p : ParamTable())
    if (!p.core && p.ReadBy(s) && p.get(s) != p.Default())
      read += (read.empty() ? "" : " ") + p.name + "=" + p.get(s);
  std::snprintf(line, sizeof line,
                "pmoe-sim %s: data %s, model %s, N=%d N_test=%d; %d trials, "
                "seed %llu\n",
                kToolVersion, s.data.model.c_str(), s.model.kind.c_str(), s.N, s.N_test, o.trials,
                static_cast<unsigned long long>(o.seed));
  out << line;
  if (!read.empty()) out << "  set: " << read << "\n";
  const std::vector<MetricInfo> metrics = CellMetrics(s);
  auto row = [&](const std::string& label, const std::string& value) {
    std::snprintf(line, sizeof line, "  %-18s %s\n", label.c_str(), value.c_str());
    out << line;
  };
  std::snprintf(line, sizeof line, "%d ok, %d diverged, %d infeasible, %d error", c.ok, c.diverged,
                c.infeasible, c.error);
  row("status", line);
  for (const auto& r : results)
    if (r.status == TrialStatus::kInfeasible || r.status == TrialStatus::kError) {
      row("  first failure", r.message);
      break;
    }
  const auto& f = CoreFields();
  row("test accuracy", Format(Moments(results, f[0].second), "%.4f"));
  row("train accuracy", Format(Moments(results, f[1].second), "%.4f"));
  std::snprintf(line, sizeof line, "%.3f (%d/%zu, %s)",
                static_cast<double>(c.success) / results.size(), c.success, results.size(),
                s.success.c_str());
  row("success rate", line);
  std::snprintf(line, sizeof line, "%d/%zu reached zero training error; stopped by: %s",
                c.converged, results.size(), StopReasons(results).c_str());
  row("training", line);
  for (const MetricInfo& m : metrics)
    if (m.type != ColumnType::kF64List)  // lists (curves, counts) are in --json and result files
      row(m.name, Format(Moments(results, MetricField(m.name)),
                         m.type == ColumnType::kF64 ? "%.4f" : "%.1f"));
  row("epochs", Format(Moments(results, f[3].second), "%.1f"));
  row("steps", Format(Moments(results, f[4].second), "%.0f"));
  row("ms per trial", Format(Moments(results, f[5].second), "%.1f"));
  std::snprintf(line, sizeof line, "data %.1f, train %.1f, eval %.1f (means)",
                Moments(results, f[6].second).mean, Moments(results, f[7].second).mean,
                Moments(results, f[8].second).mean);
  row("  of which", line);
  std::snprintf(line, sizeof line, "%.2f s for %zu trials", elapsed_s, results.size());
  row("wall time", line);
}

void PrintJson(std::ostream& out, const SimOptions& o, const std::vector<TrialResult>& results,
               double elapsed_s) {
  JsonWriter json(out);
  const Counts c = Count(results);
  json.BeginObject().Field("tool", "pmoe-sim").Field("tool_version", kToolVersion);
  json.Field("seed", static_cast<unsigned long long>(o.seed)).Field("trials", o.trials);
  json.Key("parameters").BeginObject();
  for (const ParamInfo& p : ParamTable())
    if (p.ReadBy(o.spec)) json.Field(p.name, p.get(o.spec));
  json.EndObject();
  json.Key("summary").BeginObject();
  json.Field("ok", c.ok).Field("diverged", c.diverged).Field("infeasible", c.infeasible);
  json.Field("error", c.error).Field("converged", c.converged);
  json.Field("success_rate", static_cast<double>(c.success) / results.size());
  for (const auto& [name, field] : CoreFields()) {
    const MeanSd m = Moments(results, field);
    json.Field(name + "_mean", m.mean).Field(name + "_sd", m.sd);
  }
  for (const MetricInfo& metric : CellMetrics(o.spec)) {
    const MeanSd m = Moments(results, MetricField(metric.name));
    json.Field(metric.name + "_mean", m.mean).Field(metric.name + "_sd", m.sd);
  }
  json.Field("elapsed_s", elapsed_s).EndObject();
  json.Key("trials").BeginArray();
  for (const auto& r : results) WriteTrial(json, o.spec, r);
  json.EndArray().EndObject();
  out << "\n";
}

}  // namespace pmoe
