// LEGACY (legacy_theory_orders.hpp): MODEL.md §9 (binary) and §7 (multiclass, appendix M) by
// kind name, for files written before the families declared their bounds into /theory.
#include "pmoe/analysis/legacy_theory_orders.hpp"

#include <cmath>
#include <map>
#include <utility>

namespace pmoe {
namespace {

// Appendix M extends the two pMoE theorems only; the CNN has no multiclass bound.
constexpr const char* kNoCnnMulticlass = "none (appendix M bounds pMoE only)";

std::string BinaryFormula(const std::string& kind) {
  // MODEL.md §9, samples row.
  if (kind == "cnn") return "n^8 p^12 delta^6 / eps^16";
  if (kind == "separate") return "l^8 p^12 delta^6 / eps^16";
  if (kind == "joint") return "k^4 l^6 p^12 delta^6 / eps^16";
  return "";
}

}  // namespace

double LegacyTheoryOrder(const std::string& kind, const std::string& axis) {
  // MODEL.md §9, samples row: CNN n^8 p^12, separate l^8 p^12, joint k^4 l^6 p^12.
  static const std::map<std::pair<std::string, std::string>, double> order = {
      {{"cnn", "data.n"}, 8},
      {{"cnn", "model.l"}, 0},
      {{"cnn", "model.k"}, 0},
      {{"cnn", "data.p"}, 12},
      {{"separate", "model.l"}, 8},
      {{"separate", "data.n"}, 0},
      {{"separate", "data.p"}, 12},
      {{"joint", "model.k"}, 4},
      {{"joint", "model.l"}, 6},
      {{"joint", "data.n"}, 0},
      {{"joint", "data.p"}, 12},
      // MODEL.md §7 (appendix M): the number of classes, separate c^12, joint c^8.
      {{"separate", "data.c"}, 12},
      {{"joint", "data.c"}, 8}};
  const auto it = order.find({kind, axis});
  return it == order.end() ? NAN : it->second;
}

std::string LegacyTheoryFormula(const std::string& kind, const std::string& axis) {
  const std::string binary = BinaryFormula(kind);
  if (axis != "data.c" || binary.empty()) return binary;
  // MODEL.md §7: the §9 bound multiplied by c^12 (separate) or c^8 (joint).
  if (kind == "separate") return "c^12 " + binary;
  if (kind == "joint") return "c^8 " + binary;
  return kNoCnnMulticlass;
}

bool LegacyRatioBaseline(const std::string& kind) { return kind == "cnn"; }

}  // namespace pmoe
