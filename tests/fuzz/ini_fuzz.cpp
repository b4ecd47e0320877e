// Fuzz target: sweep config text -> the INI reader, the sweep-config parser and, for grids of at
// most 8 cells, grid expansion with every cell validated and feasibility-checked. Allowed
// outcomes: success or ConfigError / InfeasibleError / SchemaError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/param_table.hpp"
#include "pmoe/io/ini_file.hpp"
#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/adaptive/adaptive_section.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pmoe;
  // [adaptive] and [precision] are parsed too, as pmoe-sweep registers them before reading a
  // config.
  static const bool registered = (RegisterAdaptiveSearch(), RegisterPrecisionTargets(), true);
  (void)registered;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const IniFile ini = ParseIniText("fuzz.ini", text);
    PMOE_FUZZ_REQUIRE(ini.text.find('\0') == std::string::npos);
    const SweepConfig config = ParseSweepConfig("fuzz.ini", ini.text);
    double cells = 1;
    for (const Axis& axis : config.axes) cells *= static_cast<double>(axis.values.size());
    if (cells > 8 || config.base.N + config.base.N_test > 100000) return 0;  // time, not safety
    // Image data sets are read from disk: only the ones the fuzzer cannot point elsewhere.
    if (config.base.data.model != "pattern" || IntParam(config.base, "data.d") > 4096) return 0;
    for (const Axis& axis : config.axes)
      if (axis.name == "data.model" || axis.name == "data.idx_dir" || axis.name == "data.d")
        return 0;
    const std::vector<Cell> cells_out = ExpandGrid(config);
    PMOE_FUZZ_REQUIRE(!cells_out.empty() && cells_out.size() <= 8);
    for (const Cell& c : cells_out) PMOE_FUZZ_REQUIRE(!c.key.empty());
  } catch (const ConfigError&) {
  } catch (const InfeasibleError&) {
  } catch (const SchemaError&) {
  }
  return 0;
}
