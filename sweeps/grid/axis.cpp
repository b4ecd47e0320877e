// The three spellings of an axis. Integer endpoints give integers; otherwise values are rounded
// to 12 significant digits so that 0.1:0.5:0.1 yields 0.3, not 0.30000000000000004.
#include "pmoe/sweep/grid/axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/core/suggest.hpp"

namespace pmoe {
namespace {

constexpr size_t kMaxValues = 100000;
// Integer endpoints are computed in double precision: beyond 2^53 they would not be exact.
constexpr double kMaxExactInteger = 9007199254740992.0;

// An axis too long to be meant: refused by its count, not as a malformed range.
[[noreturn]] void TooMany(const std::string& where, const std::string& name,
                          const std::string& text, double count) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", count);
  throw ConfigError(where, "grid." + name,
                    "at most " + std::to_string(kMaxValues) +
                        " values on one axis (this one "
                        "has " +
                        buf + ")",
                    text);
}

}  // namespace

void RequireAxisLength(const std::string& where, const std::string& name, const std::string& text,
                       double count) {
  if (count > kMaxValues) TooMany(where, name, text, count);
}

namespace {

bool ParseNumber(const std::string& text, double* value, bool* integer) {
  const std::string t = TrimBlanks(text);
  char* end = nullptr;
  *value = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !std::isfinite(*value)) return false;
  *integer = t.find_first_of(".eE") == std::string::npos;
  return true;
}

std::string NumberText(double v, bool integer) {
  if (integer) return std::to_string(static_cast<long long>(std::llround(v)));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return FormatDouble(std::strtod(buf, nullptr));
}

// "a:b" or "a:b:step", inclusive of b.
bool ParseRange(const std::string& text, std::vector<std::string>& values, double* too_many) {
  const auto parts = SplitTrimmed(text, ':');
  if (parts.size() < 2 || parts.size() > 3) return false;
  double a, b, step = 1;
  bool ia, ib, is = true;
  if (!ParseNumber(parts[0], &a, &ia) || !ParseNumber(parts[1], &b, &ib)) return false;
  if (parts.size() == 3 && !ParseNumber(parts[2], &step, &is)) return false;
  if (!(step > 0) || a > b) return false;
  const bool integer = ia && ib && is;
  if (integer && (std::abs(a) > kMaxExactInteger || std::abs(b) > kMaxExactInteger)) return false;
  if ((b - a) / step >= kMaxValues) {
    *too_many = std::floor((b - a) / step) + 1;
    return true;
  }
  for (size_t i = 0; a + i * step <= b + 1e-9 * step; ++i)
    values.push_back(NumberText(a + i * step, integer));
  return true;
}

// "a..b xF": a, a F, a F^2, ... up to b. For an integer parameter each term is rounded to the
// nearest integer and a value already taken is dropped (16..1024 x1.414: 16, 23, 32, 45, ...);
// `rounded` says whether any term was not an integer already.
bool ParseGeometric(const std::string& text, bool integer_param, std::vector<std::string>& values,
                    bool* rounded, double* too_many) {
  const size_t dots = text.find(".."), times = text.find('x');
  if (dots == std::string::npos || times == std::string::npos || times < dots) return false;
  double a, b, factor;
  bool ia, ib, iff;
  if (!ParseNumber(text.substr(0, dots), &a, &ia) ||
      !ParseNumber(text.substr(dots + 2, times - dots - 2), &b, &ib) ||
      !ParseNumber(text.substr(times + 1), &factor, &iff))
    return false;
  if (!(a > 0) || a > b || !(factor > 1)) return false;
  if ((integer_param || (ia && iff)) && b > kMaxExactInteger) return false;
  const double count = std::floor(std::log(b / a) / std::log(factor)) + 1;
  if (count > kMaxValues) {  // was cut at the limit without a word
    *too_many = count;
    return true;
  }
  *rounded = false;
  size_t terms = 0;
  // Powers of the factor, not repeated products, so the rounding does not drift over many terms.
  for (double v = a; v <= b * (1 + 1e-9) && terms < kMaxValues; v = a * std::pow(factor, ++terms)) {
    if (!integer_param) {
      values.push_back(NumberText(v, ia && iff));
      continue;
    }
    const double nearest = std::round(v);
    if (std::abs(v - nearest) > 1e-9 * v) *rounded = true;
    const std::string text = NumberText(nearest, true);
    if (values.empty() || values.back() != text) values.push_back(text);
  }
  return true;
}

}  // namespace

Axis ParseAxis(const std::string& where, const std::string& name, const std::string& text) {
  if (name.find(',') != std::string::npos) return ParseZippedAxis(where, name, text);
  if (text.find("${") != std::string::npos) return ParseRule(where, name, text);
  if (FindParam(name) == nullptr)
    throw ConfigError(where + ": [grid] " + name + ": not a parameter" + DidYouMeanParam(name) +
                      " (expected N, N_test, "
                      "success, or a data.* or model.* parameter of pmoe-sim --help)");
  Axis axis;
  axis.name = name;
  const std::string t = TrimBlanks(text);
  bool ok;
  double too_many = 0;
  if (t.find("..") != std::string::npos) {
    bool rounded = false;
    ok = ParseGeometric(t, FindParam(name)->type == ParamType::kInt, axis.values, &rounded,
                        &too_many);
    if (ok && rounded)
      axis.note = "geometric series " + t + " rounded to integers, duplicates dropped";
  } else if (t.find(':') != std::string::npos)
    ok = ParseRange(t, axis.values, &too_many);
  else {
    axis.values = SplitTrimmed(t, ',');
    ok = true;
    for (const auto& v : axis.values) ok = ok && !v.empty();
    if (axis.values.size() > kMaxValues) too_many = static_cast<double>(axis.values.size());
  }
  if (too_many > 0) TooMany(where, name, text, too_many);
  if (!ok || axis.values.empty())
    throw ConfigError(where, "grid." + name,
                      "a range a:b or a:b:step (a <= b, step > 0), a list v1,v2,... or a "
                      "geometric series a..b xF (0 < a <= b, F > 1), finite numbers, integers "
                      "of at most 2^53",
                      text);
  return axis;
}

std::vector<std::string> Axis::Names() const {
  std::vector<std::string> names = {name};
  for (const auto& [zipped_name, zipped_values] : zipped) names.push_back(zipped_name);
  return names;
}

bool Axis::AppliesToKind(const std::string& kind) const {
  return kinds.empty() || std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

}  // namespace pmoe
