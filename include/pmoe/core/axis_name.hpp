// The short names of parameters that pmoe-analyze --over/--where and a config's
// [precision] over/where both take: one table, so a name accepted by one is accepted by the other.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pmoe {

// "l" -> "model.l", "k" -> "model.k", "m" -> "model.m", "n" -> "data.n", "d" -> "data.d",
// "p" -> "data.p", "c" -> "data.c", "l_star" -> "data.l_star", "kind" -> "model.kind"; any other
// name is returned as it is.
std::string AxisName(const std::string& short_or_dotted);

// A model as pmoe-analyze's --model/--baseline and a target's model/baseline name it: a kind
// ("separate") is {model.kind, separate}; "P=V,P=V" names its cells by values (P short or dotted,
// as AxisName's). Empty when the text is malformed: a part without a name or a value.
std::vector<std::pair<std::string, std::string>> ModelSelector(const std::string& text);

}  // namespace pmoe
