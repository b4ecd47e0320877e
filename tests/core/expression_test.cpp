// Arithmetic over named numbers (core/expression.hpp): precedence, names in both spellings,
// rewriting, and bad syntax refused with the position and what was expected.
#include "pmoe/core/expression.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>

namespace pmoe {

TEST_CASE("Expressions evaluate with the usual precedence", "[core][expression]") {
  const std::map<std::string, double> v = {{"model.k", 4}, {"n", 16}, {"l", 2}};
  auto value = [&](const std::string& name) { return v.at(name); };
  CHECK(Expression::Parse("5 * ${model.k}").Evaluate(value) == 20);
  CHECK(Expression::Parse("n/l").Evaluate(value) == 8);
  CHECK(Expression::Parse("1 + n / l * 2").Evaluate(value) == 17);
  CHECK(Expression::Parse("(1 + n) / (l - 1)").Evaluate(value) == 17);
  CHECK(Expression::Parse("n - l - 1").Evaluate(value) == 13);  // left to right
  CHECK(Expression::Parse("-l * 2.5e1").Evaluate(value) == -50);
  const Expression e = Expression::Parse("${n} / (l * n) / l");
  CHECK(e.names() == std::vector<std::string>{"n", "l"});
  CHECK(e.Rewrite([](const std::string& n) { return "data." + n; }) ==
        "data.n/(data.l*data.n)/data.l");
  CHECK(Expression::Parse("n-(l-1)").Rewrite([](const std::string& n) { return n; }) == "n-(l-1)");
  CHECK(Expression::Parse("10 * n + 0.5").Rewrite([](const std::string& n) { return n; }) ==
        "10*n+0.5");  // numbers as written, not 1e+01
  CHECK(LooksLikeExpression("n/l"));
  CHECK_FALSE(LooksLikeExpression("model.l"));
}

TEST_CASE("Bad expressions are refused naming the position and what was expected",
          "[core][expression]") {
  using Catch::Matchers::Contains;
  auto refused = [](const std::string& text) {
    try {
      Expression::Parse(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refused("5 * * k"), Contains("at character 5") && Contains("a number"));
  CHECK_THAT(refused("(n / l"), Contains("expected \")\"") && Contains("found the end"));
  CHECK_THAT(refused("${k"), Contains("\"}\" closing ${k"));
  CHECK_THAT(refused("$k"), Contains("\"${\""));
  CHECK_THAT(refused("n l"), Contains("an operator"));
  CHECK_THAT(refused(""), Contains("found the end"));
}

// Issue 44: the parser recursed once per parenthesis and 100 000 of them overflowed the stack.
// Nesting, unary minus and operator chains past the limit are refused, naming it.
TEST_CASE("Deep nesting is refused by name, not a stack overflow", "[core][expression]") {
  const size_t deep = 100000;
  for (const std::string& text :
       {std::string(deep, '(') + "n" + std::string(deep, ')'), std::string(deep, '-') + "n", [&] {
          std::string chain = "n";
          for (size_t i = 0; i < deep; ++i) chain += "+1";
          return chain;
        }()}) {
    INFO(text.substr(0, 20));
    CHECK_THROWS_WITH(Expression::Parse(text), Catch::Contains("nested deeper than 200 levels"));
  }
  // Within the limit: parsed and evaluated as before.
  const std::string ok = std::string(150, '(') + "n" + std::string(150, ')') + " * 2";
  CHECK(Expression::Parse(ok).Evaluate([](const std::string&) { return 3.0; }) == 6);
}

}  // namespace pmoe
