// One swept parameter of a [grid] section (DESIGN.md): a range "a:b" or "a:b:step", a list
// "1,2,4,8" or "separate,cnn", or a geometric series "100..3200 x2". A geometric series of an
// integer parameter is rounded to integers, duplicates dropped ("16..1024 x1.414"), and says so.
// An axis in a section [grid.KIND] applies to the cells of model kind KIND only.
#pragma once

#include <string>
#include <vector>

namespace pmoe {

struct Axis {
  std::string name;                 // a parameter of the table: "model.l", "N", "model.kind"
  std::vector<std::string> values;  // as text, handed to the parameter's own parser
  std::string note;                 // how the values were derived when not as written (rounding)
  std::vector<std::string> kinds;   // model kinds it applies to ([grid.KIND]); empty: all

  bool AppliesToKind(const std::string& kind) const;
};

// Throws ConfigError naming `where`, the key grid.<name>, the text and the accepted forms.
Axis ParseAxis(const std::string& where, const std::string& name, const std::string& text);

}  // namespace pmoe
