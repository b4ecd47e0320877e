// A recursive-descent parser (expression = term {(+|-) term}, term = factor {(*|/) factor},
// factor = -factor | number | name | ${name} | (expression)) into a small tree.
// Parsing, evaluating, writing and freeing the tree all recurse once per level, so the tree's
// depth is capped (kMaxDepth): 100 000 nested parentheses in a rule or an --over axis would
// otherwise overflow the stack (issue 44). Refused by name, as any other syntax error.
#include "pmoe/core/expression.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "pmoe/core/param_table.hpp"  // FormatDouble

namespace pmoe {

struct Expression::Node {
  int depth = 1;  // levels of the subtree under and including this node
  char op = 0;    // '+', '-', '*', '/', 'u' (unary minus), 'n' (number), 'v' (name)
  double number = 0;
  std::string name;
  std::shared_ptr<const Node> left, right;
};

namespace {

using NodePtr = std::shared_ptr<const Expression::Node>;

// Far beyond any rule a person writes ("(a + b) * -c" is 4), far below the stack's limit.
constexpr int kMaxDepth = 200;

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  NodePtr Whole(std::vector<std::string>& names) {
    names_ = &names;
    NodePtr root = Sum();
    Skip();
    if (at_ < text_.size()) Fail("an operator (+ - * /) or the end");
    return root;
  }

 private:
  void Skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }

  [[noreturn]] void Fail(const std::string& expected) const {
    const std::string found = at_ < text_.size() ? "\"" + text_.substr(at_, 1) + "\"" : "the end";
    throw std::invalid_argument("\"" + text_ + "\": expected " + expected + " at character " +
                                std::to_string(at_ + 1) + ", found " + found);
  }

  [[noreturn]] void TooDeep() const {
    throw std::invalid_argument("\"" + (text_.size() > 60 ? text_.substr(0, 60) + "..." : text_) +
                                "\": nested deeper than " + std::to_string(kMaxDepth) +
                                " levels at character " + std::to_string(at_ + 1) +
                                " (the limit of an expression's parentheses, unary minus and "
                                "operators in a chain)");
  }

  NodePtr Binary(char op, NodePtr left, NodePtr right) const {
    const int depth = 1 + std::max(left->depth, right ? right->depth : 0);
    if (depth > kMaxDepth) TooDeep();
    auto node = std::make_shared<Expression::Node>();
    node->depth = depth;
    node->op = op;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  NodePtr Sum() {
    NodePtr left = Product();
    for (Skip(); at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-'); Skip()) {
      const char op = text_[at_++];
      left = Binary(op, left, Product());
    }
    return left;
  }

  NodePtr Product() {
    NodePtr left = Factor();
    for (Skip(); at_ < text_.size() && (text_[at_] == '*' || text_[at_] == '/'); Skip()) {
      const char op = text_[at_++];
      left = Binary(op, left, Factor());
    }
    return left;
  }

  static bool NameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool NamePart(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  }

  NodePtr Name(const std::string& name) {
    auto node = std::make_shared<Expression::Node>();
    node->op = 'v';
    node->name = name;
    bool seen = false;
    for (const std::string& n : *names_) seen = seen || n == name;
    if (!seen) names_->push_back(name);
    return node;
  }

  // Parentheses and unary minus recurse before any node exists: counted here.
  NodePtr Factor() {
    if (++nesting_ > kMaxDepth) TooDeep();
    NodePtr node = FactorBody();
    --nesting_;
    return node;
  }

  NodePtr FactorBody() {
    Skip();
    if (at_ >= text_.size()) Fail("a number, a parameter name or \"(\"");
    const char c = text_[at_];
    if (c == '-') {
      ++at_;
      return Binary('u', Factor(), nullptr);
    }
    if (c == '(') {
      ++at_;
      NodePtr inner = Sum();
      Skip();
      if (at_ >= text_.size() || text_[at_] != ')') Fail("\")\"");
      ++at_;
      return inner;
    }
    if (c == '$') {
      if (at_ + 1 >= text_.size() || text_[at_ + 1] != '{') Fail("\"${\" opening a name");
      at_ += 2;
      Skip();
      const size_t start = at_;
      while (at_ < text_.size() && NamePart(text_[at_])) ++at_;
      const std::string name = text_.substr(start, at_ - start);
      if (name.empty() || !NameStart(name[0])) Fail("a parameter name inside ${...}");
      Skip();
      if (at_ >= text_.size() || text_[at_] != '}') Fail("\"}\" closing ${" + name);
      ++at_;
      return Name(name);
    }
    if (NameStart(c)) {
      const size_t start = at_;
      while (at_ < text_.size() && NamePart(text_[at_])) ++at_;
      return Name(text_.substr(start, at_ - start));
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = text_.c_str() + at_;
      char* end = nullptr;
      const double value = std::strtod(begin, &end);
      if (end == begin) Fail("a number");
      at_ += static_cast<size_t>(end - begin);
      auto node = std::make_shared<Expression::Node>();
      node->op = 'n';
      node->number = value;
      return node;
    }
    Fail("a number, a parameter name or \"(\"");
  }

  const std::string& text_;
  size_t at_ = 0;
  int nesting_ = 0;
  std::vector<std::string>* names_ = nullptr;
};

double Eval(const Expression::Node& node, const std::function<double(const std::string&)>& value) {
  switch (node.op) {
    case 'n':
      return node.number;
    case 'v':
      return value(node.name);
    case 'u':
      return -Eval(*node.left, value);
    case '+':
      return Eval(*node.left, value) + Eval(*node.right, value);
    case '-':
      return Eval(*node.left, value) - Eval(*node.right, value);
    case '*':
      return Eval(*node.left, value) * Eval(*node.right, value);
    default:
      return Eval(*node.left, value) / Eval(*node.right, value);
  }
}

// Parenthesized where the precedence needs it, so that the text parses back to the same tree.
std::string Write(const Expression::Node& node,
                  const std::function<std::string(const std::string&)>& rename, int outer) {
  switch (node.op) {
    case 'n':
      return FormatDouble(node.number);
    case 'v':
      return rename(node.name);
    case 'u':
      return "-" + Write(*node.left, rename, 3);
    default: {
      const int level = node.op == '+' || node.op == '-' ? 1 : 2;
      const std::string text =
          Write(*node.left, rename, level) + node.op + Write(*node.right, rename, level + 1);
      return level < outer ? "(" + text + ")" : text;
    }
  }
}

}  // namespace

Expression Expression::Parse(const std::string& text) {
  Expression e;
  e.text_ = text;
  e.root_ = Parser(text).Whole(e.names_);
  return e;
}

double Expression::Evaluate(const std::function<double(const std::string&)>& value) const {
  return Eval(*root_, value);
}

std::string Expression::Rewrite(
    const std::function<std::string(const std::string&)>& rename) const {
  return Write(*root_, rename, 0);
}

bool LooksLikeExpression(const std::string& text) {
  return text.find_first_of("+-*/()$") != std::string::npos;
}

}  // namespace pmoe
