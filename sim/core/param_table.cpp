// The parameter table: one line per parameter, its default coming from spec.hpp's initializers.
#include "pmoe/core/param_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

int ParseInt(const std::string& text, bool* ok) {
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  *ok = !text.empty() && *end == '\0' && errno == 0 && v >= std::numeric_limits<int>::min() &&
        v <= std::numeric_limits<int>::max();
  return static_cast<int>(v);
}

double ParseDouble(const std::string& text, bool* ok) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  *ok = !text.empty() && *end == '\0' && errno == 0 && std::isfinite(v);
  return v;
}

bool ParseBool(const std::string& text, bool* ok) {
  *ok = true;
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  *ok = false;
  return false;
}

std::string JoinChoices(const std::vector<std::string>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : "|") + c;
  return out;
}

// One table row from an accessor `field(spec) -> T&`; the value type picks parser and printer.
template <typename Field>
ParamInfo Row(std::string name, std::string help, Field field,
              std::vector<std::string> choices = {}) {
  using T = std::remove_reference_t<decltype(field(std::declval<TrialSpec&>()))>;
  ParamInfo info;
  info.name = name;
  info.help = std::move(help);
  info.choices = choices;
  info.get = [field](const TrialSpec& spec) {
    const T& v = field(const_cast<TrialSpec&>(spec));
    if constexpr (std::is_same_v<T, int>) return std::to_string(v);
    else if constexpr (std::is_same_v<T, double>) return FormatDouble(v);
    else if constexpr (std::is_same_v<T, bool>) return std::string(v ? "true" : "false");
    else return v;
  };
  if constexpr (std::is_same_v<T, int>) info.type = ParamType::kInt;
  else if constexpr (std::is_same_v<T, double>) info.type = ParamType::kDouble;
  else if constexpr (std::is_same_v<T, bool>) info.type = ParamType::kBool;
  else info.type = choices.empty() ? ParamType::kString : ParamType::kChoice;
  info.assign = [field, name, choices](TrialSpec& spec, const std::string& text) {
    bool ok = true;
    if constexpr (std::is_same_v<T, int>) {
      field(spec) = ParseInt(text, &ok);
      if (!ok) throw ConfigError("", name, "an integer", text);
    } else if constexpr (std::is_same_v<T, double>) {
      field(spec) = ParseDouble(text, &ok);
      if (!ok) throw ConfigError("", name, "a finite number", text);
    } else if constexpr (std::is_same_v<T, bool>) {
      field(spec) = ParseBool(text, &ok);
      if (!ok) throw ConfigError("", name, "true or false", text);
    } else {
      bool known = choices.empty();
      for (const auto& c : choices) known = known || c == text;
      if (!known) throw ConfigError("", name, "one of " + JoinChoices(choices), text);
      field(spec) = text;
    }
  };
  return info;
}

// The row for the given data models only.
ParamInfo Only(std::vector<std::string> data_models, ParamInfo info) {
  info.data_models = std::move(data_models);
  return info;
}

#define PMOE_FIELD(path) [](TrialSpec& s) -> auto& { return s.path; }

std::vector<ParamInfo> BuildTable() {
  return {
      Row("N", "training samples", PMOE_FIELD(N)),
      Row("N_test", "test samples", PMOE_FIELD(N_test)),
      Row("success", "success criterion: test_accuracy>=X, router_hit>=X or zero_train_error",
          PMOE_FIELD(success)),
      Row("data.model", "data model: pattern (A, MODEL.md §2) or image (B, §3)",
          PMOE_FIELD(data.model), {"pattern", "image"}),
      Row("data.n", "patches per sample", PMOE_FIELD(data.n)),
      Only({"pattern"}, Row("data.d", "patch dimension", PMOE_FIELD(data.d))),
      Only({"pattern"}, Row("data.delta_d", "<o1, o2>, in (-1, 1)", PMOE_FIELD(data.delta_d))),
      Only({"pattern"}, Row("data.delta_r", "bound on |<o_a, q>| over irrelevant patterns q, in [0, 1)",
          PMOE_FIELD(data.delta_r))),
      Only({"pattern"}, Row("data.p", "number of class-irrelevant pattern sets", PMOE_FIELD(data.p))),
      Only({"pattern"}, Row("data.p_confuser", "how many of the p sets are confusers (-1: half, >= 2 if l* > 1)",
          PMOE_FIELD(data.p_confuser))),
      Only({"pattern"}, Row("data.l_star", "l*: every sample has at most l*-1 delta'-closer irrelevant patches",
          PMOE_FIELD(data.l_star))),
      Only({"pattern"}, Row("data.radius", "radius of each pattern set (spherical cap)", PMOE_FIELD(data.radius))),
      Only({"pattern"}, Row("data.confuser_strength", "confuser centers' place in their feasible interval, (0, 1]",
          PMOE_FIELD(data.confuser_strength))),
      Only({"pattern"}, Row("data.confusers", "confusers per sample: fixed K = l*-1, or uniform K ~ U{0..l*-1}",
          PMOE_FIELD(data.confusers), {"fixed", "uniform"})),
      Only({"pattern"}, Row("data.noise", "additive Gaussian noise, N(0, noise^2/d) per coordinate",
          PMOE_FIELD(data.noise))),
      Only({"image"}, Row("data.idx_dir", "directory of MNIST-format IDX files (train-*, t10k-*)",
                          PMOE_FIELD(data.idx_dir))),
      Only({"image"}, Row("data.class_pos", "image class playing o1 (label of y = +1)",
                          PMOE_FIELD(data.class_pos))),
      Only({"image"}, Row("data.class_neg", "image class playing o2 (label of y = -1)",
                          PMOE_FIELD(data.class_neg))),
      Only({"image"}, Row("data.irrelevant", "classes of the other patches, e.g. 2,3,4 "
                          "(empty: every other class)", PMOE_FIELD(data.irrelevant))),
      Row("model.kind", "model", PMOE_FIELD(model.kind), {"separate", "joint", "cnn"}),
      Row("model.l", "patches routed to each expert (pMoE)", PMOE_FIELD(model.l)),
      Row("model.k", "experts (separate training: 2)", PMOE_FIELD(model.k)),
      Row("model.m", "hidden neurons in total, m/k per expert", PMOE_FIELD(model.m)),
      Row("model.lr", "SGD step size", PMOE_FIELD(model.lr)),
      Row("model.batch", "SGD mini-batch size", PMOE_FIELD(model.batch)),
      Row("model.epochs", "maximum training epochs", PMOE_FIELD(model.epochs)),
      Row("model.early_stop", "stop at zero training error at the end of an epoch",
          PMOE_FIELD(model.early_stop)),
      Row("model.sigma_w", "hidden weight init std", PMOE_FIELD(model.sigma_w)),
      Row("model.sigma_g", "joint pMoE gating kernel init std", PMOE_FIELD(model.sigma_g)),
      Row("model.sigma_r", "separate pMoE router init std", PMOE_FIELD(model.sigma_r)),
      Row("model.output_init", "fixed output weights: gaussian N(0,1), or sign (+1/-1 by expert)",
          PMOE_FIELD(model.output_init), {"gaussian", "sign"}),
      Row("model.router_N", "separate pMoE: router trained on the first router_N samples (0: N)",
          PMOE_FIELD(model.router_N)),
      Row("model.router_lr", "separate pMoE router step size", PMOE_FIELD(model.router_lr)),
      Row("model.router_batch", "separate pMoE router batch size", PMOE_FIELD(model.router_batch)),
      Row("model.router_epochs", "separate pMoE router epochs", PMOE_FIELD(model.router_epochs)),
  };
}

#undef PMOE_FIELD

}  // namespace

const std::vector<ParamInfo>& ParamTable() {
  static const std::vector<ParamInfo> table = BuildTable();
  return table;
}

const ParamInfo* FindParam(const std::string& name) {
  for (const auto& p : ParamTable())
    if (p.name == name) return &p;
  return nullptr;
}

void SetParam(TrialSpec& spec, const std::string& name, const std::string& value,
              const std::string& where) {
  const ParamInfo* info = FindParam(name);
  if (info == nullptr)
    throw ConfigError((where.empty() ? "" : where + ": ") + "unknown parameter \"" + name +
                      "\" (pmoe-sim --help lists them)");
  try {
    info->assign(spec, value);
  } catch (const ConfigError& e) {
    throw ConfigError((where.empty() ? "" : where + ": ") + e.what());
  }
}

std::string GetParam(const TrialSpec& spec, const std::string& name) {
  const ParamInfo* info = FindParam(name);
  PMOE_CHECK(info != nullptr) << "unknown parameter " << name;
  return info->get(spec);
}

bool ParamInfo::AppliesTo(const TrialSpec& spec) const {
  return data_models.empty() ||
         std::find(data_models.begin(), data_models.end(), spec.data.model) != data_models.end();
}

std::string CanonicalKey(const TrialSpec& spec, const std::string& prefix) {
  std::string key;
  for (const auto& p : ParamTable()) {
    if (p.name.compare(0, prefix.size(), prefix) != 0 || !p.AppliesTo(spec)) continue;
    key += p.name + "=" + p.get(spec) + ";";
  }
  return key;
}

std::vector<std::pair<std::string, std::string>> SplitCanonicalKey(const std::string& key) {
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t start = 0;
  while (start < key.size()) {
    const size_t end = std::min(key.find(';', start), key.size()), eq = key.find('=', start);
    if (eq == std::string::npos || eq > end) break;
    pairs.emplace_back(key.substr(start, eq - start), key.substr(eq + 1, end - eq - 1));
    start = end + 1;
  }
  return pairs;
}

long long ParseIntegerAtLeast(const std::string& where, const std::string& key,
                              const std::string& text, long long min) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < min)
    throw ConfigError(where, key, "an integer >= " + std::to_string(min), text);
  return v;
}

std::string FormatDouble(double value) {
  char buf[40];
  // Start with as many digits as the integer part has, so that 10 prints as "10", not "1e+01".
  const double magnitude = std::abs(value);
  const int integer_digits = magnitude >= 1 && magnitude < 1e17
                                 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 1;
  for (int precision = integer_digits; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

}  // namespace pmoe
