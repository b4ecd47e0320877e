// Mean ± sd over the finished trials of one cell, as text for people or JSON for scripts.
#include "summary.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "pmoe/core/param_table.hpp"
#include "pmoe/core/version.hpp"
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
  int ok = 0, diverged = 0, infeasible = 0, success = 0;
};

Counts Count(const std::vector<TrialResult>& results) {
  Counts c;
  for (const auto& r : results) {
    c.ok += r.status == TrialStatus::kOk;
    c.diverged += r.status == TrialStatus::kDiverged;
    c.infeasible += r.status == TrialStatus::kInfeasible;
    c.success += r.success;
  }
  return c;
}

using Field = std::function<double(const TrialResult&)>;
const std::vector<std::pair<std::string, Field>>& SummaryFields() {
  static const std::vector<std::pair<std::string, Field>> fields = {
      {"test_acc", [](const TrialResult& r) { return r.test_acc; }},
      {"train_acc", [](const TrialResult& r) { return r.train_acc; }},
      {"train_loss", [](const TrialResult& r) { return r.train_loss; }},
      {"router_hit", [](const TrialResult& r) { return r.router_hit; }},
      {"epochs", [](const TrialResult& r) { return static_cast<double>(r.epochs); }},
      {"wall_ms", [](const TrialResult& r) { return r.wall_ms; }},
      {"data_ms", [](const TrialResult& r) { return r.data_ms; }},
      {"train_ms", [](const TrialResult& r) { return r.train_ms; }},
      {"eval_ms", [](const TrialResult& r) { return r.eval_ms; }},
  };
  return fields;
}

void WriteTrial(JsonWriter& json, const TrialResult& r) {
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
      .Field("router_steps", r.router_steps)
      .Field("zero_train_error", r.zero_train_error)
      .Field("router_hit", r.router_hit)
      .Field("router_hit_pos", r.router_hit_pos)
      .Field("router_hit_neg", r.router_hit_neg)
      .Field("realized_delta_d", r.realized.delta_d)
      .Field("realized_delta_r", r.realized.delta_r)
      .Field("realized_l_star", r.realized.l_star)
      .Field("realized_delta", r.realized.delta)
      .Field("confusers_outrank", r.realized.confusers_outrank)
      .Field("data_ms", r.data_ms)
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
  const std::string data =
      s.data.model == "image" ? "image n=" + std::to_string(s.data.n) + " from " + s.data.idx_dir
                              : "pattern n=" + std::to_string(s.data.n) +
                                    " d=" + std::to_string(s.data.d);
  std::snprintf(line, sizeof line,
                "pmoe-sim %s: %s, data %s, l=%d k=%d m=%d, N=%d N_test=%d; "
                "%d trials, seed %llu\n",
                kToolVersion, s.model.kind.c_str(), data.c_str(), s.model.l, s.model.k, s.model.m,
                s.N, s.N_test, o.trials, static_cast<unsigned long long>(o.seed));
  out << line;
  if (!results.empty() && results[0].status != TrialStatus::kInfeasible) {
    const RealizedStats& r = results[0].realized;
    std::snprintf(line, sizeof line,
                  "  realized data (trial 0): delta_d %.6f, delta_r %.6f, l* %d, delta %.4f, "
                  "confusers outrank: %s\n",
                  r.delta_d, r.delta_r, r.l_star, r.delta, r.confusers_outrank ? "yes" : "no");
    out << line;
  }
  std::snprintf(line, sizeof line, "  status: %d ok, %d diverged, %d infeasible\n", c.ok,
                c.diverged, c.infeasible);
  out << line;
  auto row = [&](const char* label, const std::string& value) {
    std::snprintf(line, sizeof line, "  %-18s %s\n", label, value.c_str());
    out << line;
  };
  const auto& f = SummaryFields();
  row("test accuracy", Format(Moments(results, f[0].second), "%.4f"));
  row("train accuracy", Format(Moments(results, f[1].second), "%.4f"));
  std::snprintf(line, sizeof line, "%.3f (%d/%zu, %s)", static_cast<double>(c.success) /
                results.size(), c.success, results.size(), s.success.c_str());
  row("success rate", line);
  row("router hit rate", Format(Moments(results, f[3].second), "%.4f"));
  row("epochs", Format(Moments(results, f[4].second), "%.1f"));
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
  for (const ParamInfo& p : ParamTable()) json.Field(p.name, p.get(o.spec));
  json.EndObject();
  json.Key("summary").BeginObject();
  json.Field("ok", c.ok).Field("diverged", c.diverged).Field("infeasible", c.infeasible);
  json.Field("success_rate", static_cast<double>(c.success) / results.size());
  for (const auto& [name, field] : SummaryFields()) {
    const MeanSd m = Moments(results, field);
    json.Field(name + "_mean", m.mean).Field(name + "_sd", m.sd);
  }
  json.Field("elapsed_s", elapsed_s).EndObject();
  json.Key("trials").BeginArray();
  for (const auto& r : results) WriteTrial(json, r);
  json.EndArray().EndObject();
  out << "\n";
}

}  // namespace pmoe
