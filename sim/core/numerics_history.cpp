// The releases of earlier numerics versions, and the message that refuses to mix them.
#include "pmoe/core/numerics_history.hpp"

#include "pmoe/core/version.hpp"

namespace pmoe {

std::string ReleaseOfNumerics(int version) {
  // The last commit of each earlier version: a build of it grows that version's files.
  switch (version) {
    case 7:
      return "pmoe-sim 0.1.0 (git commit 7a0ed56)";
    default:
      return "";
  }
}

std::string CurrentParamName(const std::string& name) {
  if (name == "model.full_steps") return "model.max_steps";  // version 8: one step cap
  return name;
}

std::string DescribeNumericsDifference(int a, int b, const std::string& a_name,
                                       const std::string& b_name) {
  if (a == b) return "";
  std::string out = "numerics version " + std::to_string(a) + " in " + a_name + ", " +
                    std::to_string(b) + " in " + b_name +
                    " (computed by another version of pmoe-sim: new trials would not match "
                    "the old ones, so the two are never mixed)";
  // The older side is the one to rerun or to grow with its own release.
  const int older = a < b ? a : b;
  const std::string& older_name = a < b ? a_name : b_name;
  out += "; either rerun the sweep into a new file with this build (numerics version " +
         std::to_string(kNumericsVersion) + "), or grow " + older_name +
         " with a build of numerics version " + std::to_string(older);
  const std::string release = ReleaseOfNumerics(older);
  if (!release.empty()) out += ", " + release;
  out += "; every pmoe-analyze command still reads " + older_name;
  return out;
}

}  // namespace pmoe
