// The parameter table: the core's rows (fields of TrialSpec) and the rows the families declare
// (canonical text in TrialSpec::params), and the typed accessors the families read them by.
#include "pmoe/core/param_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/numerics_history.hpp"
#include "pmoe/core/suggest.hpp"
#include "pmoe/core/version.hpp"

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

// A core row, stored in a typed field of TrialSpec (an int: N, N_test; or text: success and the
// family choices), from an accessor `field(spec) -> T&`.
template <typename T>
ParamInfo FieldRow(std::string name, std::string help, T& (*field)(TrialSpec&),
                   std::vector<std::string> choices = {}, long long min = 0, long long max = 0) {
  static_assert(std::is_same_v<T, int> || std::is_same_v<T, std::string>);
  ParamInfo info;
  info.name = std::move(name);
  info.help = std::move(help);
  info.choices = std::move(choices);
  info.min = min;
  info.max = max;
  if constexpr (std::is_same_v<T, int>)
    info.type = ParamType::kInt;
  else
    info.type = info.choices.empty() ? ParamType::kString : ParamType::kChoice;
  info.get = [field](const TrialSpec& spec) {
    const T& v = field(const_cast<TrialSpec&>(spec));
    if constexpr (std::is_same_v<T, int>)
      return std::to_string(v);
    else
      return v;
  };
  const ParamInfo copy = info;  // the parser needs the row's type, range and choices
  info.assign = [field, copy](TrialSpec& spec, const std::string& text) {
    const std::string canonical = ParseValue(copy, text);
    if constexpr (std::is_same_v<T, int>)
      field(spec) = static_cast<int>(std::stoll(canonical));
    else
      field(spec) = canonical;
  };
  return info;
}

// A family's parameter, kept as canonical text in TrialSpec::params; `fallback`: the default's.
ParamInfo Stored(ParamInfo info, std::string fallback) {
  const std::string name = info.name;
  info.get = [name, fallback](const TrialSpec& spec) {
    const auto it = spec.params.find(name);
    return it == spec.params.end() ? fallback : it->second;
  };
  const ParamInfo copy = info;
  info.assign = [copy](TrialSpec& spec, const std::string& text) {
    spec.params[copy.name] = ParseValue(copy, text);
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

std::vector<std::string> FamilyNames(const std::vector<FamilyParams>& families) {
  std::vector<std::string> names;
  for (const FamilyParams& f : families) names.push_back(f.name);
  return names;
}

// Whether two declarations are one: the SGD families each declare the rows of their base.
bool SameDeclaration(const ParamInfo& a, const ParamInfo& b) {
  return a.name == b.name && a.type == b.type && a.help == b.help && a.choices == b.choices &&
         a.min == b.min && a.max == b.max && a.keyed_at_default == b.keyed_at_default &&
         a.label == b.label && a.symbol == b.symbol && a.unit == b.unit &&
         a.Default() == b.Default();
}

// Adds `declared` (a family's own or shared rows; the family their first reader). A shared row
// declared again, identically, by another family gains that family as a reader.
void AddRows(const FamilyParams& family, const std::vector<ParamInfo>& declared,
             std::vector<ParamInfo>& rows) {
  for (ParamInfo own : declared) {
    auto it = std::find_if(rows.begin(), rows.end(),
                           [&](const ParamInfo& r) { return r.name == own.name; });
    if (it != rows.end()) {
      PMOE_CHECK(SameDeclaration(*it, own) && !it->readers.empty())
          << family.name << " declares " << own.name << ", which another family declared";
      it->readers.push_back(family.name);
      continue;
    }
    own.readers = {family.name};
    rows.push_back(std::move(own));
  }
}

// Adds `family` to the readers of each row it reads (declared by the core or any family, so
// the order of the family list does not matter).
void AddReader(const FamilyParams& family, const std::set<std::string>& own,
               std::vector<ParamInfo>& rows) {
  for (const std::string& name : family.reads) {
    auto it =
        std::find_if(rows.begin(), rows.end(), [&](const ParamInfo& r) { return r.name == name; });
    PMOE_CHECK(it != rows.end()) << family.name << " reads an undeclared parameter " << name;
    const bool its_own =
        std::find(it->readers.begin(), it->readers.end(), family.name) != it->readers.end();
    PMOE_CHECK(its_own || !own.count(name))
        << family.name << " reads " << name << ", which " << it->readers.front()
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
      Core(FieldRow("N", "training samples", PMOE_FIELD(N), {}, 1, kMaxSamples)
               .Labeled("training samples", "N", "samples")),
      Core(FieldRow("N_test", "test samples", PMOE_FIELD(N_test), {}, 1, kMaxSamples)
               .Labeled("test samples", "N_\\mathrm{test}", "samples")),
      Core(FieldRow("success",
                    "success criterion: test_accuracy>=X, router_hit>=X or zero_train_error",
                    PMOE_FIELD(success))
               .Labeled("success criterion")),
      Core(FieldRow("data.model", "data family", PMOE_FIELD(data.model), FamilyNames(data))
               .Labeled("data")),
      Core(FieldRow("model.kind", "model family", PMOE_FIELD(model.kind), FamilyNames(models))
               .Labeled("model")),
  };
  // Every declaration before any reader, so a family may read rows a family after it in the
  // list shares. A cell's rows come in an order that the list's order cannot change (so neither
  // can its canonical key): the core's, the families' shared rows (by
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
  // Display order: core, then [data], then [model], each in the recorded keys' order, then the
  // rows not in it in the order above (a stable sort).
  const std::vector<std::string>& recorded = RecordedKeyOrder();
  auto place = [&](const ParamInfo& p) {
    const long long part = p.core ? 0 : p.name.rfind("data.", 0) == 0 ? 1 : 2;
    const auto at = std::find(recorded.begin(), recorded.end(), p.name);
    return std::make_pair(part, p.core ? 0 : at - recorded.begin());
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const ParamInfo& a, const ParamInfo& b) { return place(a) < place(b); });
  // Readers in the list's order (data families, then model families), whatever declared first.
  std::vector<std::string> order;
  for (const auto* list : {&data, &models})
    for (const FamilyParams& f : *list) order.push_back(f.name);
  for (ParamInfo& row : rows)
    std::stable_sort(row.readers.begin(), row.readers.end(),
                     [&](const std::string& a, const std::string& b) {
                       return std::find(order.begin(), order.end(), a) <
                              std::find(order.begin(), order.end(), b);
                     });
  return rows;
}

#undef PMOE_FIELD

const std::vector<std::string>& RecordedKeyOrder() {
  static const std::vector<std::string> order = {
      "data.labels",
      "data.n",
      "data.d",
      "data.delta_d",
      "data.delta_r",
      "data.p",
      "data.p_confuser",
      "data.l_star",
      "data.radius",
      "data.confuser_strength",
      "data.confusers",
      "data.noise",
      "data.idx_dir",
      "data.class_pos",
      "data.class_neg",
      "data.irrelevant",
      "data.c",
      "data.classes",
      "data.clusters",
      "data.alpha_lo",
      "data.alpha_hi",
      "data.beta_lo",
      "data.beta_hi",
      "data.gamma_lo",
      "data.gamma_hi",
      "data.sigma_p",
      "data.scale",
      "data.draw",
      "data.draw_seed",
      "model.l",
      "model.k",
      "model.m",
      "model.lr",
      "model.batch",
      "model.epochs",
      "model.max_steps",
      "model.early_stop",
      "model.sigma_w",
      "model.sigma_g",
      "model.sigma_r",
      "model.output_init",
      "model.loss",
      "model.router_N",
      "model.router_lr",
      "model.router_batch",
      "model.router_epochs",
      "model.router_samples",
      "model.activation",
      "model.filters",
      "model.init_scale",
      "model.stop_rule",
      "model.loss_rise",
      "model.curve_every",
      "model.experts",
      "model.variant",
      "model.lr_expert",
      "model.lr_router",
      "model.load_balance",
      "model.optimizer",
      "model.lr_single",
      "model.weight_decay",
  };
  return order;
}

ParamInfo& ParamInfo::Resolved(std::string rule_in_words,
                               std::function<std::string(const TrialSpec&)> resolution) {
  rule = std::move(rule_in_words);
  resolve = std::move(resolution);
  return *this;
}

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

namespace {

ParamInfo Declared(const std::string& name, ParamType type, const std::string& help) {
  ParamInfo info;
  info.name = name;
  info.type = type;
  info.help = help;
  return info;
}

// The canonical text of `name` in `spec`, which must be a declared row of type `type`.
std::string TypedText(const TrialSpec& spec, const std::string& name, ParamType type) {
  const ParamInfo* info = FindParam(name);
  PMOE_CHECK(info != nullptr) << "unknown parameter " << name;
  PMOE_CHECK(info->type == type || (type == ParamType::kString && info->type == ParamType::kChoice))
      << name << " read as another type than it is declared with";
  return info->get(spec);
}

}  // namespace

ParamInfo IntRow(const std::string& name, long long fallback, long long min, long long max,
                 const std::string& help) {
  ParamInfo info = Declared(name, ParamType::kInt, help);
  info.min = min;
  info.max = max;
  PMOE_CHECK(min <= fallback && fallback <= max) << name << "'s default outside its range";
  return Stored(info, std::to_string(fallback));
}

ParamInfo DoubleRow(const std::string& name, double fallback, const std::string& help) {
  return Stored(Declared(name, ParamType::kDouble, help), FormatDouble(fallback));
}

ParamInfo BoolRow(const std::string& name, bool fallback, const std::string& help) {
  return Stored(Declared(name, ParamType::kBool, help), fallback ? "true" : "false");
}

ParamInfo TextRow(const std::string& name, const std::string& fallback, const std::string& help) {
  return Stored(Declared(name, ParamType::kString, help), fallback);
}

ParamInfo ChoiceRow(const std::string& name, const std::vector<std::string>& choices,
                    const std::string& help) {
  ParamInfo info = Declared(name, ParamType::kChoice, help);
  info.choices = choices;
  return Stored(info, choices.at(0));
}

template <typename T>
ParamInfo ValueRow(const std::string& name, const std::string& help, const T& fallback,
                   const std::vector<std::string>& choices, long long min, long long max) {
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long>) {
    PMOE_CHECK(min <= max && min >= std::numeric_limits<T>::min() &&
               max <= std::numeric_limits<T>::max())
        << name;
    return IntRow(name, fallback, min, max, help);
  } else if constexpr (std::is_same_v<T, double>) {
    return DoubleRow(name, fallback, help);
  } else if constexpr (std::is_same_v<T, bool>) {
    return BoolRow(name, fallback, help);
  } else {
    if (choices.empty()) return TextRow(name, fallback, help);
    PMOE_CHECK(std::find(choices.begin(), choices.end(), fallback) != choices.end())
        << name << "'s default is not one of its choices";
    ParamInfo info = Declared(name, ParamType::kChoice, help);
    info.choices = choices;
    return Stored(info, fallback);
  }
}

template ParamInfo ValueRow<int>(const std::string&, const std::string&, const int&,
                                 const std::vector<std::string>&, long long, long long);
template ParamInfo ValueRow<long long>(const std::string&, const std::string&, const long long&,
                                       const std::vector<std::string>&, long long, long long);
template ParamInfo ValueRow<double>(const std::string&, const std::string&, const double&,
                                    const std::vector<std::string>&, long long, long long);
template ParamInfo ValueRow<bool>(const std::string&, const std::string&, const bool&,
                                  const std::vector<std::string>&, long long, long long);
template ParamInfo ValueRow<std::string>(const std::string&, const std::string&, const std::string&,
                                         const std::vector<std::string>&, long long, long long);

template <typename T>
T FromCanonical(const std::string& text) {
  if constexpr (std::is_same_v<T, int> || std::is_same_v<T, long long>)
    return static_cast<T>(std::stoll(text));  // in range: the row checked it when parsed
  else if constexpr (std::is_same_v<T, double>)
    return std::strtod(text.c_str(), nullptr);  // exact: the text is FormatDouble's
  else if constexpr (std::is_same_v<T, bool>)
    return text == "true";
  else
    return text;
}

template int FromCanonical<int>(const std::string&);
template long long FromCanonical<long long>(const std::string&);
template double FromCanonical<double>(const std::string&);
template bool FromCanonical<bool>(const std::string&);
template std::string FromCanonical<std::string>(const std::string&);

long long IntParam(const TrialSpec& spec, const std::string& name) {
  return FromCanonical<long long>(TypedText(spec, name, ParamType::kInt));
}

double DoubleParam(const TrialSpec& spec, const std::string& name) {
  return FromCanonical<double>(TypedText(spec, name, ParamType::kDouble));
}

bool BoolParam(const TrialSpec& spec, const std::string& name) {
  return FromCanonical<bool>(TypedText(spec, name, ParamType::kBool));
}

std::string TextParam(const TrialSpec& spec, const std::string& name) {
  return TypedText(spec, name, ParamType::kString);
}

void SetParamValue(TrialSpec& spec, const std::string& name, int value) {
  SetParam(spec, name, std::to_string(value));
}
void SetParamValue(TrialSpec& spec, const std::string& name, long long value) {
  SetParam(spec, name, std::to_string(value));
}
void SetParamValue(TrialSpec& spec, const std::string& name, double value) {
  SetParam(spec, name, FormatDouble(value));
}
void SetParamValue(TrialSpec& spec, const std::string& name, bool value) {
  SetParam(spec, name, value ? "true" : "false");
}
void SetParamValue(TrialSpec& spec, const std::string& name, const std::string& value) {
  SetParam(spec, name, value);
}
void SetParamValue(TrialSpec& spec, const std::string& name, const char* value) {
  SetParam(spec, name, std::string(value));
}

std::string DidYouMeanParam(const std::string& name) {
  const std::string renamed = CurrentParamName(name);
  if (renamed != name)
    return " (renamed \"" + renamed + "\" in numerics version " + std::to_string(kNumericsVersion) +
           ")";
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
