// The parameter table: one line per parameter, its default coming from spec.hpp's initializers
// (built-in rows) or from the family that declares it (its own rows).
#include "pmoe/core/param_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/suggest.hpp"

namespace pmoe {
namespace {

// Finite, and not so small that it underflowed to a subnormal or zero from non-zero digits.
double ParseDouble(const std::string& text, bool* ok, bool* underflow) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  *ok = !text.empty() && *end == '\0' && std::isfinite(v);
  *underflow = *ok && errno == ERANGE;
  *ok = *ok && errno == 0;
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

// Parses text as a value of kind `type` (range and choices checked) into canonical text.
std::string ParseValue(const ParamInfo& info, const std::string& text) {
  switch (info.type) {
    case ParamType::kInt: {
      return std::to_string(ParseIntegerInRange("", info.name, text, info.min, info.max));
    }
    case ParamType::kDouble: {
      bool ok = true, underflow = false;
      const double v = ParseDouble(text, &ok, &underflow);
      if (underflow)
        throw ConfigError("", info.name,
                          "0 or a number of magnitude at least 2.2e-308 (this "
                          "one underflows double precision)",
                          text);
      if (!ok) throw ConfigError("", info.name, "a finite number", text);
      return FormatDouble(v);
    }
    case ParamType::kBool: {
      bool ok = true;
      const bool v = ParseBool(text, &ok);
      if (!ok) throw ConfigError("", info.name, "true or false", text);
      return v ? "true" : "false";
    }
    case ParamType::kChoice: {
      for (const auto& c : info.choices)
        if (c == text) return text;
      throw ConfigError("", info.name, "one of " + JoinChoices(info.choices), text);
    }
    case ParamType::kString:
      if (text.find('\0') != std::string::npos || text.find(';') != std::string::npos ||
          text.find('\n') != std::string::npos)
        throw ConfigError("", info.name, "text without NUL, ';' or line breaks", text);
      return text;
  }
  return text;
}

// One table row from an accessor `field(spec) -> T&`; the value type picks parser and printer.
// The accessor is a function pointer, not a lambda's own type: one instantiation (and one pair of
// get/assign closures) per value type rather than per row (a sixth of the compile time).
template <typename T>
ParamInfo Row(std::string name, std::string help, T& (*field)(TrialSpec&),
              std::vector<std::string> choices = {}, long long min = 0, long long max = 0) {
  ParamInfo info;
  info.name = std::move(name);
  info.help = std::move(help);
  info.choices = std::move(choices);
  info.min = min;
  info.max = max;
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long>) {
    info.type = ParamType::kInt;
    PMOE_CHECK(min <= max && min >= std::numeric_limits<T>::min() &&
               max <= std::numeric_limits<T>::max())
        << info.name;
  } else if constexpr (std::is_same_v<T, double>) {
    info.type = ParamType::kDouble;
  } else if constexpr (std::is_same_v<T, bool>) {
    info.type = ParamType::kBool;
  } else {
    info.type = info.choices.empty() ? ParamType::kString : ParamType::kChoice;
  }
  info.get = [field](const TrialSpec& spec) {
    const T& v = field(const_cast<TrialSpec&>(spec));
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long>)
      return std::to_string(v);
    else if constexpr (std::is_same_v<T, double>)
      return FormatDouble(v);
    else if constexpr (std::is_same_v<T, bool>)
      return std::string(v ? "true" : "false");
    else
      return v;
  };
  const ParamInfo copy = info;  // the parser needs the row's type, range and choices
  info.assign = [field, copy](TrialSpec& spec, const std::string& text) {
    const std::string canonical = ParseValue(copy, text);
    if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long>)
      field(spec) = static_cast<T>(std::stoll(canonical));
    else if constexpr (std::is_same_v<T, double>)
      field(spec) = std::strtod(canonical.c_str(), nullptr);
    else if constexpr (std::is_same_v<T, bool>)
      field(spec) = canonical == "true";
    else
      field(spec) = canonical;
  };
  return info;
}

// A family's own parameter, kept as canonical text in TrialSpec::extra.
ParamInfo Extra(ParamInfo info, std::string fallback) {
  const std::string name = info.name;
  info.get = [name, fallback](const TrialSpec& spec) {
    const auto it = spec.extra.find(name);
    return it == spec.extra.end() ? fallback : it->second;
  };
  const ParamInfo copy = info;
  info.assign = [copy](TrialSpec& spec, const std::string& text) {
    spec.extra[copy.name] = ParseValue(copy, text);
  };
  return info;
}

ParamInfo Core(ParamInfo info) {
  info.core = true;
  return info;
}

#define PMOE_FIELD(path)        \
  +[](TrialSpec & s) -> auto& { \
    return s.path;              \
  }

constexpr long long kMaxSamples = 100000000;  // 1e8: the memory check refuses far less anyway
constexpr long long kMaxCount = 1000000000;

std::vector<std::string> FamilyNames(const std::vector<FamilyParams>& families) {
  std::vector<std::string> names;
  for (const FamilyParams& f : families) names.push_back(f.name);
  return names;
}

// The rows the built-in families share, stored in DataSpec and ModelSpec; which family reads
// which is each family's reads().
std::vector<ParamInfo> SharedRows() {
  return {
      Row("data.labels",
          "labels: iid (fair, independent) or balanced (sample i gets class i mod c)",
          PMOE_FIELD(data.labels), {"iid", "balanced"})
          .Labeled("labels"),
      Row("data.n", "patches per sample", PMOE_FIELD(data.n), {}, 1, 1024)
          .Labeled("patches per sample", "n", "patches"),
      Row("data.d", "patch dimension", PMOE_FIELD(data.d), {}, 1, 10000000)
          .Labeled("patch dimension", "d"),
      Row("data.delta_d", "<o1, o2>, in (-1, 1)", PMOE_FIELD(data.delta_d))
          .Labeled("class-pattern product", "\\delta_d"),
      Row("data.delta_r", "bound on |<o_a, q>| over irrelevant patterns q, in [0, 1)",
          PMOE_FIELD(data.delta_r))
          .Labeled("irrelevant-pattern bound", "\\delta_r"),
      Row("data.p", "number of class-irrelevant pattern sets", PMOE_FIELD(data.p), {}, 1, 1000000)
          .Labeled("pattern sets", "p", "sets"),
      Row("data.p_confuser", "how many of the p sets are confusers (-1: half, >= 2 if l* > 1)",
          PMOE_FIELD(data.p_confuser), {}, -1, 1000000)
          .Labeled("confuser sets", "", "sets"),
      Row("data.l_star", "l*: every sample has at most l*-1 delta'-closer irrelevant patches",
          PMOE_FIELD(data.l_star), {}, 1, 1024)
          .Labeled("threshold", "l^*", "patches"),
      Row("data.radius", "radius of each pattern set (spherical cap)", PMOE_FIELD(data.radius))
          .Labeled("pattern-set radius", "r"),
      Row("data.confuser_strength", "confuser centers' place in their feasible interval, (0, 1]",
          PMOE_FIELD(data.confuser_strength))
          .Labeled("confuser strength"),
      Row("data.confusers", "confusers per sample: fixed K = l*-1, or uniform K ~ U{0..l*-1}",
          PMOE_FIELD(data.confusers), {"fixed", "uniform"})
          .Labeled("confusers per sample"),
      Row("data.noise", "additive Gaussian noise, N(0, noise^2/d) per coordinate",
          PMOE_FIELD(data.noise))
          .Labeled("noise level", "\\sigma"),
      Row("data.idx_dir",
          "image data: mnist (MNIST digits, scripts/install-mnist.sh), fashion-mnist, or a "
          "directory of MNIST-format IDX files (train-*, t10k-*)",
          PMOE_FIELD(data.idx_dir))
          .Labeled("image data"),
      Row("data.class_pos", "image class playing o1 (label 0, y = +1)", PMOE_FIELD(data.class_pos),
          {}, 0, 255)
          .Labeled("image class of o1"),
      Row("data.class_neg", "image class playing o2 (label 1, y = -1)", PMOE_FIELD(data.class_neg),
          {}, 0, 255)
          .Labeled("image class of o2"),
      Row("data.irrelevant", "classes of the other patches, e.g. 2,3,4 (empty: every other class)",
          PMOE_FIELD(data.irrelevant))
          .Labeled("classes of the other patches"),
      Unkeyed(
          Row("data.c", "classes (MODEL.md §7; 2: the binary model)", PMOE_FIELD(data.c), {}, 2, 64)
              .Labeled("classes", "c", "classes")),
      Unkeyed(Row("data.classes",
                  "discriminative image classes, e.g. 0,1,2,3 (empty: class_pos "
                  "and class_neg)",
                  PMOE_FIELD(data.classes))
                  .Labeled("discriminative image classes")),
      Row("model.l", "patches routed to each expert (pMoE)", PMOE_FIELD(model.l), {}, 1, 1024)
          .Labeled("patches per expert", "l", "patches"),
      Row("model.k", "experts (separate training: c, or 0 for one per class)", PMOE_FIELD(model.k),
          {}, 0, 4096)
          .Labeled("experts", "k", "experts"),
      Row("model.m", "hidden neurons in total, m/k per expert", PMOE_FIELD(model.m), {}, 1,
          kMaxCount)
          .Labeled("hidden neurons", "m", "neurons"),
      Row("model.lr", "SGD step size", PMOE_FIELD(model.lr)).Labeled("step size", "\\eta"),
      Row("model.batch", "SGD mini-batch size", PMOE_FIELD(model.batch), {}, 1, kMaxSamples)
          .Labeled("batch size", "B", "samples"),
      Row("model.epochs", "epoch cap (0: none)", PMOE_FIELD(model.epochs), {}, 0, kMaxCount)
          .Labeled("epoch cap", "", "epochs"),
      Row("model.max_steps", "SGD step cap (0: none)", PMOE_FIELD(model.max_steps), {}, 0,
          1000000000000000LL)
          .Labeled("step cap", "", "steps"),
      Row("model.early_stop", "stop at zero training error at the end of an epoch",
          PMOE_FIELD(model.early_stop))
          .Labeled("early stop"),
      Row("model.sigma_w", "hidden weight init std", PMOE_FIELD(model.sigma_w))
          .Labeled("hidden weight init std"),
      Row("model.sigma_g", "joint pMoE gating kernel init std", PMOE_FIELD(model.sigma_g))
          .Labeled("gating kernel init std"),
      Row("model.sigma_r", "separate pMoE router init std", PMOE_FIELD(model.sigma_r))
          .Labeled("router init std"),
      Row("model.output_init", "fixed output weights: gaussian N(0,1), or sign (+1/-1 by expert)",
          PMOE_FIELD(model.output_init), {"gaussian", "sign"})
          .Labeled("output weights"),
      Unkeyed(Row("model.loss",
                  "auto (logistic for 2 classes, softmax for more), logistic, or "
                  "softmax (c outputs, also for 2 classes)",
                  PMOE_FIELD(model.loss), {"auto", "logistic", "softmax"})
                  .Labeled("loss")),
      Row("model.router_N", "separate pMoE: router trained on the first router_N samples (0: N)",
          PMOE_FIELD(model.router_N), {}, 0, kMaxSamples)
          .Labeled("router training samples", "", "samples"),
      Row("model.router_lr", "separate pMoE router step size", PMOE_FIELD(model.router_lr))
          .Labeled("router step size"),
      Row("model.router_batch", "separate pMoE router batch size", PMOE_FIELD(model.router_batch),
          {}, 1, kMaxSamples)
          .Labeled("router batch size", "", "samples"),
      Row("model.router_epochs", "separate pMoE router epochs", PMOE_FIELD(model.router_epochs), {},
          0, kMaxCount)
          .Labeled("router epochs", "", "epochs"),
  };
}

// Adds `declared` (a family's own or shared rows; the family their first reader).
void AddRows(const FamilyParams& family, const std::vector<ParamInfo>& declared,
             std::vector<ParamInfo>& rows) {
  for (ParamInfo own : declared) {
    PMOE_CHECK(std::none_of(rows.begin(), rows.end(),
                            [&](const ParamInfo& r) { return r.name == own.name; }))
        << family.name << " declares " << own.name << ", which another family declared";
    own.readers = {family.name};
    rows.push_back(std::move(own));
  }
}

// Adds `family` to the readers of each row it reads (declared by the table or any family, so
// the order of the family list does not matter).
void AddReader(const FamilyParams& family, const std::set<std::string>& own,
               std::vector<ParamInfo>& rows) {
  for (const std::string& name : family.reads) {
    auto it =
        std::find_if(rows.begin(), rows.end(), [&](const ParamInfo& r) { return r.name == name; });
    PMOE_CHECK(it != rows.end()) << family.name << " reads an undeclared parameter " << name;
    PMOE_CHECK(!own.count(name)) << family.name << " reads " << name << ", which "
                                 << it->readers.front()
                                 << " declares as its own: declare it in shared_params()";
    if (std::find(it->readers.begin(), it->readers.end(), family.name) == it->readers.end())
      it->readers.push_back(family.name);
  }
}

// The families sorted by name: the order of their shared rows in the table.
std::vector<FamilyParams> ByName(std::vector<FamilyParams> families) {
  std::stable_sort(families.begin(), families.end(),
                   [](const FamilyParams& a, const FamilyParams& b) { return a.name < b.name; });
  return families;
}

}  // namespace

std::vector<ParamInfo> BuildParamTable(const std::vector<FamilyParams>& data,
                                       const std::vector<FamilyParams>& models) {
  std::vector<ParamInfo> rows = {
      Core(Row("N", "training samples", PMOE_FIELD(N), {}, 1, kMaxSamples)
               .Labeled("training samples", "N", "samples")),
      Core(Row("N_test", "test samples", PMOE_FIELD(N_test), {}, 1, kMaxSamples)
               .Labeled("test samples", "N_\\mathrm{test}", "samples")),
      Core(Row("success", "success criterion: test_accuracy>=X, router_hit>=X or zero_train_error",
               PMOE_FIELD(success))
               .Labeled("success criterion")),
      Core(Row("data.model", "data family", PMOE_FIELD(data.model), FamilyNames(data))
               .Labeled("data")),
      Core(Row("model.kind", "model family", PMOE_FIELD(model.kind), FamilyNames(models))
               .Labeled("model")),
  };
  std::vector<ParamInfo> shared = SharedRows();
  rows.insert(rows.end(), shared.begin(), shared.end());
  // Every declaration before any reader, so a family may read rows a family after it in the
  // list shares. A cell's rows come in an order that the list's order cannot change (so neither
  // can its canonical key): the core's, the shared rows above, the families' shared rows (by
  // declaring family's name), then its data family's and its model family's own rows (a cell
  // reads no other family's own rows: AddReader refuses it).
  std::set<std::string> own_names;
  for (const auto* list : {&data, &models})
    for (const FamilyParams& f : ByName(*list)) AddRows(f, f.shared, rows);
  for (const auto* list : {&data, &models})
    for (const FamilyParams& f : *list) {
      AddRows(f, f.own, rows);
      for (const ParamInfo& p : f.own) own_names.insert(p.name);
    }
  for (const FamilyParams& f : data) AddReader(f, own_names, rows);
  for (const FamilyParams& f : models) AddReader(f, own_names, rows);
  // Display order: core, then [data], then [model]; a stable sort keeps each part's order.
  auto part = [](const ParamInfo& p) { return p.core ? 0 : p.name.rfind("data.", 0) == 0 ? 1 : 2; };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const ParamInfo& a, const ParamInfo& b) { return part(a) < part(b); });
  return rows;
}

#undef PMOE_FIELD

ParamInfo& ParamInfo::Labeled(std::string words, std::string sym, std::string unit_of_values) {
  label = std::move(words);
  symbol = std::move(sym);
  unit = std::move(unit_of_values);
  return *this;
}

ParamInfo Unkeyed(ParamInfo info) {
  info.keyed_at_default = false;
  return info;
}

const std::vector<ParamInfo>& ParamTable() {
  static const std::vector<ParamInfo> table =
      BuildParamTable(DataFamilyParams(), ModelFamilyParams());
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
    throw ConfigError((where.empty() ? "" : where + ": ") + "unknown parameter \"" + name + "\"" +
                      DidYouMeanParam(name) + " (pmoe-sim --list-params lists them)");
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

bool ParamInfo::ReadBy(const TrialSpec& spec) const {
  if (core) return true;
  const std::string& family = name.rfind("data.", 0) == 0 ? spec.data.model : spec.model.kind;
  return std::find(readers.begin(), readers.end(), family) != readers.end();
}

std::string ParamInfo::Default() const { return get(TrialSpec{}); }

std::string CanonicalKey(const TrialSpec& spec, const std::string& prefix) {
  std::string key;
  for (const auto& p : ParamTable()) {
    if (p.name.compare(0, prefix.size(), prefix) != 0 || !p.ReadBy(spec)) continue;
    const std::string value = p.get(spec);
    if (!p.keyed_at_default && value == p.Default()) continue;
    key += p.name + "=" + value + ";";
  }
  return key;
}

void AddUnkeyedDefaults(std::map<std::string, std::string>& params) {
  const auto data = params.find("data.model"), model = params.find("model.kind");
  for (const auto& p : ParamTable()) {
    if (p.keyed_at_default || params.count(p.name)) continue;
    const bool is_data = p.name.rfind("data.", 0) == 0;
    const auto family = is_data ? data : model;
    if (family == params.end()) continue;
    if (std::find(p.readers.begin(), p.readers.end(), family->second) != p.readers.end())
      params[p.name] = p.Default();
  }
}

ParamInfo ExtraInt(const std::string& name, long long fallback, long long min, long long max,
                   const std::string& help) {
  ParamInfo info;
  info.name = name;
  info.type = ParamType::kInt;
  info.help = help;
  info.min = min;
  info.max = max;
  return Extra(info, std::to_string(fallback));
}

ParamInfo ExtraDouble(const std::string& name, double fallback, const std::string& help) {
  ParamInfo info;
  info.name = name;
  info.type = ParamType::kDouble;
  info.help = help;
  return Extra(info, FormatDouble(fallback));
}

ParamInfo ExtraChoice(const std::string& name, const std::vector<std::string>& choices,
                      const std::string& help) {
  ParamInfo info;
  info.name = name;
  info.type = ParamType::kChoice;
  info.help = help;
  info.choices = choices;
  return Extra(info, choices.at(0));
}

std::string ExtraText(const TrialSpec& spec, const std::string& name) {
  return GetParam(spec, name);
}

long long ExtraIntValue(const TrialSpec& spec, const std::string& name) {
  return std::stoll(GetParam(spec, name));
}

double ExtraDoubleValue(const TrialSpec& spec, const std::string& name) {
  return std::strtod(GetParam(spec, name).c_str(), nullptr);
}

std::string DidYouMeanParam(const std::string& name) {
  std::vector<std::string> names;
  for (const ParamInfo& p : ParamTable()) names.push_back(p.name);
  const std::string near = NearestName(name, names);
  return near.empty() ? "" : " (did you mean \"" + near + "\"?)";
}

std::string DidYouMeanConfigKey(const std::string& key, const std::vector<std::string>& sections,
                                const std::vector<std::string>& top_level) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos) {  // a top-level key: its own names first, then parameters
    std::vector<std::string> names = top_level;
    for (const ParamInfo& p : ParamTable())
      if (p.name.find('.') == std::string::npos) names.push_back(p.name);
    const std::string near = NearestName(key, names);
    if (!near.empty()) return " (did you mean \"" + near + "\"?)";
    return DidYouMeanParam(key);
  }
  const std::string section = key.substr(0, dot);
  if (std::find(sections.begin(), sections.end(), section) == sections.end()) {
    const std::string near = NearestName(section, sections);
    if (!near.empty()) return " (did you mean [" + near + "]?)";
  }
  return DidYouMeanParam(key);
}

}  // namespace pmoe
