// One swept parameter of a [grid] section (DESIGN.md): a range "a:b" or "a:b:step", a list
// "1,2,4,8" or "separate,cnn", or a geometric series "100..3200 x2". A geometric series of an
// integer parameter is rounded to integers, duplicates dropped ("16..1024 x1.414"), and says so.
// An axis in a section [grid.KIND] applies to the cells of model kind KIND only.
// Linked axes (linked_axes.cpp): a zip "model.k, model.m = (2, 10), (4, 20)" moves parameters
// together, and a rule "model.m = 5 * ${model.k}" derives one in each cell from the others.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmoe/core/expression.hpp"
#include "pmoe/core/spec.hpp"

namespace pmoe {

struct Axis {
  std::string name;                 // a parameter of the table: "model.l", "N", "model.kind"
  std::vector<std::string> values;  // as text, handed to the parameter's own parser
  std::string note;                 // how the values were derived when not as written (rounding)
  std::vector<std::string> kinds;   // model kinds it applies to ([grid.KIND]); empty: all
  // Parameters zipped with `name`: each takes its own value at the same step (values[i] with
  // zipped[j].second[i]), so the axis has values.size() steps, not a product of them.
  std::vector<std::pair<std::string, std::vector<std::string>>> zipped;
  // A rule, not an axis: `name` is set in each cell to this expression of the cell's other
  // parameters (full names), after the axes and [model.KIND] overrides, rules in file order.
  // `values` then holds the rule's text alone (one step).
  std::optional<Expression> rule;

  bool AppliesToKind(const std::string& kind) const;
  // `name` and the zipped parameters' names.
  std::vector<std::string> Names() const;
};

// Throws ConfigError naming `where`, the key grid.<name>, the text and the accepted forms. A
// name listing parameters ("model.k, model.m") is a zip, a text holding ${...} a rule.
Axis ParseAxis(const std::string& where, const std::string& name, const std::string& text);

// The one limit of an axis's length, whatever its form (list, range, series, zip): ConfigError
// naming grid.<name> when `count` values exceed it (issue 44: a zip was not held to it).
void RequireAxisLength(const std::string& where, const std::string& name, const std::string& text,
                       double count);

// "model.k, model.m" and "(2, 10), (4, 20), (8, 40)": every tuple as many values as names, each
// value valid for its parameter, no parameter twice.
Axis ParseZippedAxis(const std::string& where, const std::string& names, const std::string& text);

// "model.m" and "5 * ${model.k}": a numeric parameter from an expression (core/expression.hpp)
// over numeric parameters, written by full name or by a unique short one (${k} is model.k).
Axis ParseRule(const std::string& where, const std::string& name, const std::string& text);

// The value a rule gives in `spec`, as the text its parameter parses: an integer parameter
// needs an integral value. Throws ConfigError naming `where`, the rule and the values it read.
std::string EvaluateRule(const Axis& rule, const TrialSpec& spec, const std::string& where);

}  // namespace pmoe
