// Building a sweep's setup from its config: cells, schema, identity and paths, all checked
// before any file is touched.
#include "pmoe/sweep/run/sweep_setup.hpp"

#include <algorithm>

#include "pmoe/core/build_info.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/version.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/file_kind.hpp"
#include "pmoe/sweep/adaptive/adaptive_config.hpp"
#include "pmoe/sweep/grid/config_section.hpp"

namespace pmoe {

SweepSetup PrepareSweep(const std::string& config_path, const std::string& out,
                        const ShardSpec& shard) {
  SweepSetup s;
  s.config = LoadSweepConfig(config_path);
  s.cells = ExpandGrid(s.config);
  s.shard = shard;
  std::vector<const TrialSpec*> specs;
  int classes = 0;
  for (const Cell& c : s.cells) {
    specs.push_back(&c.spec);
    classes = std::max(classes, DataFamilyOf(c.spec).Shape(c.spec).classes);
  }
  s.schema = RowSchema(MetricsOf(specs), classes);
  s.identity.columns = s.schema.Text();
  s.identity.numerics = kNumericsVersion;
  s.identity.build = NumericsBuild();
  s.identity.seed = s.config.seed;
  s.identity.trials = s.config.trials;
  s.identity.shard = shard.Text();
  if (s.config.adaptive) s.identity.adaptive = AdaptiveIdentity(*s.config.adaptive);
  for (const Cell& c : s.cells) {
    s.identity.cells.push_back(c.key);
    s.identity.labels.push_back(c.label);
  }
  s.merged_path = out.empty() ? "results/" + s.config.name + ".h5" : out;
  s.out_path = shard.count > 0 ? ShardPath(s.merged_path, shard) : s.merged_path;
  s.journal_path = s.out_path + ".journal";
  // Before anything runs: a directory as --out would be found only at the first checkpoint.
  for (const std::string& path : {s.out_path, s.journal_path, s.out_path + ".tmp"})
    if (const std::string problem = OutputFileProblem(path); !problem.empty())
      throw ConfigError(path + ": " + problem +
                        " (--out names the result file; its journal and "
                        "temp file go beside it)");
  // An adaptive sweep's work is decided round by round while it runs (AdaptiveSource), as is
  // that of a registered section's source (precision targets).
  if (!TrialsDecidedByRounds(s.config))
    s.work = ShardOf(PlanWork(s.cells, s.config.trials), shard.index, shard.count);
  return s;
}

SweepIdentity IdentityOf(const ResultContents& contents) {
  SweepIdentity id;
  id.numerics = contents.meta.numerics_version;
  id.build = contents.meta.numerics_build;
  id.seed = contents.meta.master_seed;
  id.trials = contents.meta.trials_per_cell;
  id.shard = contents.meta.shard;
  id.adaptive = contents.meta.adaptive;
  if (contents.schema) id.columns = contents.schema->Text();
  for (const StoredCell& c : contents.cells) {
    id.cells.push_back(c.key);
    id.labels.push_back(c.label);
  }
  return id;
}

ResultMeta MetaFor(const SweepSetup& setup, const std::string& command_line) {
  ResultMeta meta;
  meta.numerics_version = kNumericsVersion;
  meta.numerics_build = NumericsBuild();
  meta.name = setup.config.name;
  meta.config = setup.config.text;
  meta.config_path = setup.config.path;
  meta.master_seed = setup.config.seed;
  meta.trials_per_cell = setup.config.trials;
  meta.shard = setup.shard.Text();
  meta.command_line = command_line;
  meta.created_utc = UtcNow();
  meta.tool_version = kToolVersion;
  meta.git_describe = kGitDescribe;
  meta.adaptive = setup.identity.adaptive;
  if (setup.config.section) setup.config.section->Annotate(meta);  // [precision]: its identity
  return meta;
}

}  // namespace pmoe
