// Every parameter of a TrialSpec, with its dotted name ("data.delta_r", "model.lr", "N"),
// default, meaning, parser and the families that read it, in one table. The command line, config
// files, seeds, cell keys and result files all read it. The table is built from the core rows
// (N, N_test, success and the two family choices) and the rows each family declares where it
// reads them (family.hpp): a family says which rows it reads.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/core/spec.hpp"

namespace pmoe {

enum class ParamType { kInt, kDouble, kBool, kChoice, kString };

struct ParamInfo {
  std::string name;  // dotted: "N", "data.n", "model.lr"
  ParamType type;
  std::string help;                  // one line
  std::vector<std::string> choices;  // kChoice only
  long long min = 0, max = 0;        // kInt: the accepted range (checked when parsed)
  std::function<std::string(const TrialSpec&)> get;            // canonical text of the value
  std::function<void(TrialSpec&, const std::string&)> assign;  // parsed; throws on bad syntax
  // Core parameters (N, N_test, success, data.model, model.kind) are read by every cell; any
  // other is read by the families named here, and only then enters a cell's seeds and key.
  bool core = false;
  std::vector<std::string> readers;
  // False for a parameter added to families after results were recorded (data.c, model.loss):
  // at its default it is left out of canonical keys, so the cells that leave it there keep their
  // keys, seeds and result files. AddUnkeyedDefaults puts it back for readers of keys.
  bool keyed_at_default = true;
  // How figures and pages name it (analysis/python/pmoe/plots/labels.py reads them from the
  // generated docs/reference/parameters.md): words ("patches per expert"), the paper's symbol in
  // TeX without dollars ("l"; empty: none) and the unit of its values ("samples"; empty: none).
  std::string label, symbol, unit;
  // A default that stands for a rule ("-1: half of p"): the rule in words, and the value it
  // resolves to in a cell. The key keeps the value as given (so keys and seeds do not move); the
  // sweeps record the resolved one beside it (/resolved in the result file). Empty for a value
  // that is what it says.
  std::string rule;
  std::function<std::string(const TrialSpec&)> resolve;

  // Sets label, symbol and unit; returns the row, so a declaration reads
  // `IntRow(...).Labeled("clusters", "K")`.
  ParamInfo& Labeled(std::string words, std::string sym = "", std::string unit_of_values = "");

  // Sets the rule and its resolution; returns the row.
  ParamInfo& Resolved(std::string rule_in_words,
                      std::function<std::string(const TrialSpec&)> resolution);

  // Whether the cell `spec` reads it: core, or read by the spec's data family (data.*) or model
  // family (model.*).
  bool ReadBy(const TrialSpec& spec) const;
  std::string Default() const;  // canonical text of the default value
};

// What the table needs of a family: its name (a value of data.model or model.kind), the shared
// rows it reads and its own rows. The family layer defines these two from the family list the
// binary links (family.cpp): the core asks for the families' declarations, never names them.
struct FamilyParams {
  std::string name;
  std::vector<std::string> reads;  // rows the core or a family (its `shared`) declares
  std::vector<ParamInfo> own;      // rows only it reads
  std::vector<ParamInfo> shared;   // rows it declares, reads, and other families may read
};
std::vector<FamilyParams> DataFamilyParams();
std::vector<FamilyParams> ModelFamilyParams();

// All parameters, in display order: core first, then [data], then [model].
const std::vector<ParamInfo>& ParamTable();

// The table of these families (ParamTable: of the family list). The order of `data` and of
// `models` changes no row read by one cell relative to another, so no canonical key.
std::vector<ParamInfo> BuildParamTable(const std::vector<FamilyParams>& data,
                                       const std::vector<FamilyParams>& models);

// nullptr when the name is unknown.
const ParamInfo* FindParam(const std::string& name);

// Parses `value` into spec's parameter `name`; ConfigError names `where`, the key, the value and
// the expected form when either the name or the value is bad.
void SetParam(TrialSpec& spec, const std::string& name, const std::string& value,
              const std::string& where = "");

std::string GetParam(const TrialSpec& spec, const std::string& name);

// "name=value;..." over the parameters the cell reads whose name starts with `prefix` ("" for
// all), in table order: the canonical text that seeds and cell keys are hashed from.
std::string CanonicalKey(const TrialSpec& spec, const std::string& prefix);

// The (name, value) pairs of a canonical key, in its order: CanonicalKey's inverse.
std::vector<std::pair<std::string, std::string>> SplitCanonicalKey(const std::string& key);

// The parameters that cells of at least two model kinds hold, each kind with one value (a
// [model.cnn] max_steps = 200000 beside pMoE's 50000): a setting of each model, not a design, so
// series and precision targets pair CNN and pMoE cells across them. `cells`: every cell's
// parameters (name -> value, with model.kind); cells without a kind are left out.
std::set<std::string> ParamsSetPerKind(
    const std::vector<std::map<std::string, std::string>>& cells);

// Whether a baseline cell (a CNN) pairs with a model's cell: every parameter of the baseline that
// the other reads too, but N, the kind and those `ignored` (set per kind, or named by the model
// and baseline), has the same value there. One only the baseline reads does not stop pairing.
// Precision targets and pmoe-analyze statistic place a baseline by it alike.
bool CellsPair(const std::map<std::string, std::string>& baseline,
               const std::map<std::string, std::string>& other,
               const std::set<std::string>& ignored);

// `s` without its leading and trailing spaces and tabs.
std::string TrimBlanks(const std::string& s);

// "a, b ,c" split at `sep`, each part trimmed: {"a", "b", "c"} (an empty text gives {""}).
std::vector<std::string> SplitTrimmed(const std::string& text, char sep);

// Adds to `params` (a cell's parameters from its key) each parameter that keys leave out at its
// default (keyed_at_default false), with that default, when the key's families read it.
void AddUnkeyedDefaults(std::map<std::string, std::string>& params);

// The row, keyed only away from its default: a parameter added after sweeps were run keeps
// every earlier cell's key (and so its seeds) while it is at its default.
ParamInfo Unkeyed(ParamInfo info);

// The order in which recorded canonical keys list their parameters (the table's order when they
// were written): the table keeps it whoever declares a row, so moving a declaration moves no
// key. A parameter not in it comes after those that are, in the table's own order.
const std::vector<std::string>& RecordedKeyOrder();

// Rows for the families' parameters, each stored as canonical text in TrialSpec::params
// (absent: `fallback`, the declared default). A choice's default is its first choice.
ParamInfo IntRow(const std::string& name, long long fallback, long long min, long long max,
                 const std::string& help);
ParamInfo DoubleRow(const std::string& name, double fallback, const std::string& help);
ParamInfo BoolRow(const std::string& name, bool fallback, const std::string& help);
ParamInfo TextRow(const std::string& name, const std::string& fallback, const std::string& help);
ParamInfo ChoiceRow(const std::string& name, const std::vector<std::string>& choices,
                    const std::string& help);

// The row of a parameter of C++ type T (int, long long, double, bool, std::string; a string with
// choices is a choice, `fallback` among them), for declarations that take type and default from
// a struct field (family/field_params.hpp). For int and long long, [min, max] is the range.
template <typename T>
ParamInfo ValueRow(const std::string& name, const std::string& help, const T& fallback,
                   const std::vector<std::string>& choices = {}, long long min = 0,
                   long long max = 0);

// The typed value of a parameter's canonical text (what ParamInfo::get returns).
template <typename T>
T FromCanonical(const std::string& text);

// The value of a declared parameter in `spec` (its default when not set): the families' typed
// accessors. IntParam of a parameter of another type, and so on, is a programming error.
long long IntParam(const TrialSpec& spec, const std::string& name);
double DoubleParam(const TrialSpec& spec, const std::string& name);
bool BoolParam(const TrialSpec& spec, const std::string& name);
std::string TextParam(const TrialSpec& spec, const std::string& name);

// SetParam with a typed value: its canonical text (exact for doubles: FormatDouble) parsed as if
// read from a config, so the range and choice checks apply. For tools and tests that build specs.
void SetParamValue(TrialSpec& spec, const std::string& name, int value);
void SetParamValue(TrialSpec& spec, const std::string& name, long long value);
void SetParamValue(TrialSpec& spec, const std::string& name, double value);
void SetParamValue(TrialSpec& spec, const std::string& name, bool value);
void SetParamValue(TrialSpec& spec, const std::string& name, const std::string& value);
void SetParamValue(TrialSpec& spec, const std::string& name, const char* value);

// Upper bounds of sample counts (1e8: the memory check refuses far less anyway) and of other
// counts (epochs, neurons) among the parameters.
inline constexpr long long kMaxSamples = 100000000;
inline constexpr long long kMaxCount = 1000000000;

// Trials per cell (a run option of pmoe-sim and sweep configs, and what result files may claim).
inline constexpr long long kMaxTrials = 10000000;

// An integer in [min, max] from text, else ConfigError "where: key = "text": expected an integer
// in min..max" (run options such as trials and seed, which are not TrialSpec parameters).
long long ParseIntegerInRange(const std::string& where, const std::string& key,
                              const std::string& text, long long min, long long max);
long long ParseIntegerAtLeast(const std::string& where, const std::string& key,
                              const std::string& text, long long min);

// Shortest decimal text that parses back to exactly `value`.
std::string FormatDouble(double value);

}  // namespace pmoe
