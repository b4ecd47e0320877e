// A default that stands for a rule is resolved and recorded (issue 43): data.p_confuser = -1
// means "half of p, at least 2 per trained pair"; the result file's /resolved holds the value
// each cell got, while its key keeps -1 (keys and seeds do not move).
#include <catch2/catch.hpp>
#include <cmath>

#include "pmoe/core/param_table.hpp"
#include "pmoe/io/h5_file.hpp"
#include "pmoe/sweep/grid/grid.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"
#include "pmoe/sweep/store/result_file.hpp"
#include "support/run_command.hpp"

namespace pmoe {

TEST_CASE("A rule's default is resolved per cell into /resolved, the key keeps it as given",
          "[sweep][params]") {
  const ParamInfo* p_confuser = FindParam("data.p_confuser");
  REQUIRE(p_confuser != nullptr);
  CHECK_FALSE(p_confuser->rule.empty());
  const SweepConfig config =
      ParseSweepConfig("rules.ini",
                       "[grid]\ndata.p = 3,8,12\nmodel.kind = separate,cnn\n[model.cnn]\nm = 20\n"
                       "[grid.separate]\ndata.p_confuser = -1,2\n");
  const std::vector<Cell> cells = ExpandGrid(config);
  const std::string path = test::FreshDirectory("resolved_rules") + "/rules.h5";
  WriteResultFile(path, ResultMeta{}, cells, RowSchema({}, 2), {});
  const H5File file = H5File::OpenReadOnly(path);
  const std::vector<double> resolved = file.ReadColumn<double>("/resolved/data.p_confuser");
  REQUIRE(resolved.size() == cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    const int p = static_cast<int>(IntParam(c.spec, "data.p"));
    const int given = static_cast<int>(IntParam(c.spec, "data.p_confuser"));
    INFO(c.key);
    // l* = 4 > 1: one trained pair, so at least 2 sets; else half of p.
    CHECK(resolved[i] == (given >= 0 ? given : std::max(2, p / 2)));
    CHECK(c.key.find("data.p_confuser=" + std::to_string(given)) != std::string::npos);
  }
}

}  // namespace pmoe
