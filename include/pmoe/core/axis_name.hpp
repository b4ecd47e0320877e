// The short names of parameters that pmoe-analyze --over/--where and a config's
// [precision] over/where both take: one table, so a name accepted by one is accepted by the other.
#pragma once

#include <string>

namespace pmoe {

// "l" -> "model.l", "k" -> "model.k", "m" -> "model.m", "n" -> "data.n", "d" -> "data.d",
// "p" -> "data.p", "c" -> "data.c", "l_star" -> "data.l_star", "kind" -> "model.kind"; any other
// name is returned as it is.
std::string AxisName(const std::string& short_or_dotted);

}  // namespace pmoe
