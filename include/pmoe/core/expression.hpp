// Arithmetic over named numbers, for quantities derived from a cell's parameters: a sweep rule
// (`model.m = 5 * ${model.k}`) and an analysis axis (`pmoe-analyze exponent --over n/l`).
// The grammar: numbers (2, 0.5, 1e3), names, + - * / with the usual precedence (left to right),
// unary minus and parentheses. A name is written ${name} (Hydra's interpolation) or bare, and may
// hold dots (data.n, model.l, N_test); what a name means is the caller's business.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pmoe {

class Expression {
 public:
  // Throws std::invalid_argument naming the text, the position and what was expected there.
  static Expression Parse(const std::string& text);

  // The names it refers to, each once, in order of first appearance.
  const std::vector<std::string>& names() const { return names_; }
  const std::string& text() const { return text_; }

  // The value with each name's value from `value` (division by zero gives inf or NaN).
  double Evaluate(const std::function<double(const std::string&)>& value) const;

  // The expression with every name replaced by rename(name), in the bare form ("data.n/model.l").
  std::string Rewrite(const std::function<std::string(const std::string&)>& rename) const;

  struct Node;

 private:
  std::string text_;
  std::vector<std::string> names_;
  std::shared_ptr<const Node> root_;
};

// Whether `text` is an expression rather than a single name: it holds an operator, a
// parenthesis or a ${...} reference.
bool LooksLikeExpression(const std::string& text);

}  // namespace pmoe
