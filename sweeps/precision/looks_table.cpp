// The precision targets' looks as the text of a result-file attribute, and back.
#include "pmoe/precision/looks_table.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace pmoe {
namespace {

Verdict ParseVerdict(const std::string& name, const std::string& line) {
  for (Verdict v :
       {Verdict::kRunning, Verdict::kAbove, Verdict::kBelow, Verdict::kWithin, Verdict::kUndecided})
    if (name == VerdictName(v)) return v;
  throw std::invalid_argument("precision_looks: verdict \"" + name + "\" in line \"" + line +
                              "\" (expected running, above, below, within or undecided)");
}

}  // namespace

std::string LooksTable(const std::vector<TargetLooks>& targets) {
  std::string text;
  for (const TargetLooks& t : targets)
    for (const Look& l : t.looks) {
      char numbers[200];
      std::snprintf(numbers, sizeof numbers, "%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g", l.index + 1,
                    l.total, l.alpha, l.estimate, l.lo, l.hi);
      text += t.target + "\t" + numbers + "\t" + VerdictName(l.verdict) + "\n";
    }
  return text;
}

std::vector<TargetLooks> ParseLooksTable(const std::string& text) {
  std::vector<TargetLooks> targets;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::vector<std::string> field;
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, '\t');) field.push_back(f);
    if (field.size() != 8)
      throw std::invalid_argument("precision_looks: line \"" + line + "\" has " +
                                  std::to_string(field.size()) +
                                  " fields (expected 8: target, look, trials, alpha, "
                                  "estimate, lo, hi, verdict)");
    auto number = [&](const std::string& f) {
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      if (f.empty() || *end != '\0')
        throw std::invalid_argument("precision_looks: \"" + f + "\" in line \"" + line +
                                    "\" is not a number");
      return v;
    };
    Look look;
    look.index = static_cast<int>(number(field[1])) - 1;
    look.total = static_cast<int>(number(field[2]));
    look.alpha = number(field[3]);
    look.estimate = number(field[4]);
    look.lo = number(field[5]);
    look.hi = number(field[6]);
    look.verdict = ParseVerdict(field[7], line);
    if (targets.empty() || targets.back().target != field[0]) targets.push_back({field[0], {}});
    targets.back().looks.push_back(look);
  }
  return targets;
}

}  // namespace pmoe
