// One swept parameter of a [grid] section (DESIGN.md): a range "a:b" or "a:b:step", a list
// "1,2,4,8" or "separate,cnn", or a geometric series "100..3200 x2".
#pragma once

#include <string>
#include <vector>

namespace pmoe {

struct Axis {
  std::string name;                 // a parameter of the table: "model.l", "N", "model.kind"
  std::vector<std::string> values;  // as text, handed to the parameter's own parser
};

// Throws ConfigError naming `where`, the key grid.<name>, the text and the accepted forms.
Axis ParseAxis(const std::string& where, const std::string& name, const std::string& text);

}  // namespace pmoe
